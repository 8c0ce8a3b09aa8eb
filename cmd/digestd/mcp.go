package main

import (
	"context"
	"errors"
	"io"
)

func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("mcp: not implemented yet")
}
