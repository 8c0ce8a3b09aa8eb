package main

import (
	"context"
	"errors"
	"io"
)

func runGC(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("gc: not implemented yet")
}
