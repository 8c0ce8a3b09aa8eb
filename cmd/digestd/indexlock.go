package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/search"
)

// The embedded search index is one process's at a time: bleve holds its
// directory open for writing. A lock file beside the directory
// (<index>.lock) says which process holds it, so that a second process
// learns at once who holds the index and where to reach it, instead of
// waiting on the engine's own lock and failing with a timeout. The lock is
// flock(2) on that file: the kernel releases it when its holder exits, so
// a holder that crashed never holds the index.

// indexHolder is what the lock file says of the process that holds the
// index.
type indexHolder struct {
	PID     int    `json:"pid"`
	Command string `json:"command"`
	// Since is when the holder took the index.
	Since time.Time `json:"since"`
	// Address is where a holder that serves HTTP (digestd serve) listens,
	// once it does.
	Address string `json:"address,omitempty"`
}

// String names the holder for a person: "digestd serve (pid 4312, since
// 2026-12-01T10:00:00Z, listening on 127.0.0.1:8080)".
func (h indexHolder) String() string {
	if h.PID == 0 {
		return "another process (it has not said which)"
	}
	s := fmt.Sprintf("digestd %s (pid %d, since %s", h.Command, h.PID, h.Since.Format(time.RFC3339))
	if h.Address != "" {
		s += ", listening on " + h.Address
	}
	return s + ")"
}

// baseURL is the URL at which a holder that serves HTTP is reached, or ""
// for one that does not: an address on every interface is reached on
// loopback.
func (h indexHolder) baseURL() string {
	host, port, err := net.SplitHostPort(h.Address)
	if err != nil {
		return ""
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// indexLock is this process's hold on an embedded search index: the open
// lock file, locked.
type indexLock struct {
	f      *os.File
	holder indexHolder
}

// lockPath is the lock file of the index in dir.
func lockPath(dir string) string { return filepath.Clean(dir) + ".lock" }

// lockIndex takes the lock of the index in dir for command, at once: when
// another process holds it, the error is an *indexHeldError naming that
// process.
func lockIndex(dir, command string) (*indexLock, error) {
	path := lockPath(dir)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open the search index's lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &indexHeldError{Dir: dir, Holder: readHolder(path)}
		}
		return nil, fmt.Errorf("lock the search index: %w", err)
	}
	l := &indexLock{f: f, holder: indexHolder{PID: os.Getpid(), Command: command, Since: time.Now().UTC().Truncate(time.Second)}}
	if err := l.write(); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// write records the holder in the lock file.
func (l *indexLock) write() error {
	b, err := json.Marshal(l.holder)
	if err != nil {
		return err
	}
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("write the search index's lock: %w", err)
	}
	if _, err := l.f.WriteAt(append(b, '\n'), 0); err != nil {
		return fmt.Errorf("write the search index's lock: %w", err)
	}
	return nil
}

// SetAddress records where the holder listens, for a second process to
// point its user at.
func (l *indexLock) SetAddress(addr string) error {
	l.holder.Address = addr
	return l.write()
}

// Close releases the lock. The file stays; what it says is only read while
// its lock is held.
func (l *indexLock) Close() error { return l.f.Close() }

// readHolder reads the holder a lock file names. A holder writes it right
// after taking the lock, so an empty or partial file is read again for a
// moment.
func readHolder(path string) indexHolder {
	var h indexHolder
	for range 25 {
		b, err := os.ReadFile(path)
		if err == nil && json.Unmarshal(b, &h) == nil && h.PID != 0 {
			return h
		}
		time.Sleep(20 * time.Millisecond)
	}
	return indexHolder{}
}

// indexHeldError is another process holding the embedded search index.
type indexHeldError struct {
	Dir    string
	Holder indexHolder
}

func (e *indexHeldError) Error() string {
	return fmt.Sprintf("the search index %s is held by %s", e.Dir, e.Holder)
}

// heldPolicy is what a command does when another process holds the index.
type heldPolicy int

const (
	// heldWithoutIndex: the command archives without indexing, and the
	// holder's reconcile indexes what it archived (digest, batch, gc).
	heldWithoutIndex heldPolicy = iota
	// heldRefuse: the command cannot do its work without the index and
	// stops at once, naming the holder (serve, reindex).
	heldRefuse
	// heldSearchElsewhere: the command serves everything but search, and a
	// search answers FEATURE_DISABLED naming the holder and how to reach
	// it (mcp).
	heldSearchElsewhere
)

// indexHeldPolicy says what each command does when another process holds
// the embedded index; a command not listed works without it.
var indexHeldPolicy = map[string]heldPolicy{
	"serve":   heldRefuse,
	"reindex": heldRefuse,
	"mcp":     heldSearchElsewhere,
	"digest":  heldWithoutIndex,
	"batch":   heldWithoutIndex,
	"gc":      heldWithoutIndex,
}

// refusal is the error of a command that stops because the index is held,
// with what its user can do.
func (e *indexHeldError) refusal(command string) error {
	switch command {
	case "serve":
		return fmt.Errorf("%w: stop it first (one process serves an archive's search index at a time), or start this server with --index off (no search) or --index naming another directory", e)
	case "reindex":
		return fmt.Errorf("%w: stop it, then run digestd reindex again (digestd serve also reconciles the index with the archive when it starts)", e)
	}
	return e
}

// heldIndex stands for an index another process holds: every call is
// FEATURE_DISABLED with a message naming the holder and where to search
// instead, never a retry that cannot succeed. Its message names no path.
type heldIndex struct{ holder indexHolder }

func (h heldIndex) fail() error {
	msg := "search is not available in this process: this archive's search index is held by " + h.holder.String()
	if u := h.holder.baseURL(); u != "" {
		msg += "; search there (POST " + u + "/v1/search), or point this MCP client at " + u + "/mcp, where every tool of this server runs with search"
	} else {
		msg += "; one process holds it at a time: stop that one and start this one again, or run digestd serve and point every MCP client at its /mcp"
	}
	details := map[string]any{"holder_command": h.holder.Command, "holder_pid": h.holder.PID}
	if u := h.holder.baseURL(); u != "" {
		details["holder_url"] = u
	}
	return &fault.Error{Code: fault.FeatureDisabled, Msg: msg, Details: details}
}

func (h heldIndex) Put(context.Context, ...search.Document) error           { return h.fail() }
func (h heldIndex) SetLabels(context.Context, archive.Hash, []string) error { return h.fail() }
func (h heldIndex) HasLabel(context.Context, string) (bool, error)          { return false, h.fail() }
func (h heldIndex) Remove(context.Context, archive.Hash) error              { return h.fail() }
func (h heldIndex) Source(context.Context, archive.Hash) (search.Source, error) {
	return search.Source{}, h.fail()
}
func (h heldIndex) Sources(context.Context, func(search.Source) error) error { return h.fail() }
func (h heldIndex) Candidates(context.Context, string, search.Filter, int) ([]search.Candidate, int, error) {
	return nil, 0, h.fail()
}
func (h heldIndex) Frequencies(context.Context, []string) ([]int, int, error) {
	return nil, 0, h.fail()
}
func (h heldIndex) Close() error { return nil }

// lockedIndex is an embedded index and the lock this process holds on it;
// closing it closes the index, then releases the lock.
type lockedIndex struct {
	search.Index
	lock *indexLock
}

func (x lockedIndex) Close() error {
	err := x.Index.Close()
	if lerr := x.lock.Close(); err == nil {
		err = lerr
	}
	return err
}
