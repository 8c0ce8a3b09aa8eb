package main

import (
	"context"
	"errors"
	"io"
)

func runBatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("batch: not implemented yet")
}
