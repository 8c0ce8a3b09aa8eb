package batch

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Line is one line of a batch output file: the source's id, the HTTP status
// POST /v1/digest would answer for it, and the response-v2 envelope it
// would answer, byte for byte the same shape.
type Line struct {
	ID       string `json:"id"`
	Status   int    `json:"status"`
	Envelope any    `json:"envelope"`
}

// Outcome is what an output line records about its source.
type Outcome struct {
	Success bool
	// Code is the envelope's error_code ("" on success).
	Code string
}

// Resume is what an existing output file already holds.
type Resume struct {
	// Done maps each id present in the file to its outcome.
	Done map[string]Outcome
	// RepairedBytes is how many bytes of a torn tail (an unterminated last
	// line, or trailing lines that are not output lines) were cut off.
	RepairedBytes int64
	// DuplicateLines counts lines whose id an earlier line already had
	// (the first one counts).
	DuplicateLines int
}

// Output is a batch output file open for appending whole lines. Each line is
// one write(2); the file is fsynced at most SyncInterval after a write
// (after every line when the interval is 0) and on Close, so after a crash
// every synced line is intact and at most a torn last line is lost, which
// OpenOutput repairs. An Output holds an exclusive lock on the file, so two
// runs cannot append to it at once. Its methods are safe for concurrent use.
type Output struct {
	f        *os.File
	interval time.Duration

	mu      sync.Mutex
	dirty   bool
	err     error // first write or sync error; sticky
	stop    chan struct{}
	stopped chan struct{}
}

// OpenOutput opens (creating it if needed) the output file at path, locks
// it, reads the lines it already holds and repairs a torn tail by truncating
// the file back to the end of its last good line. A corrupt line followed by
// good lines is not a torn tail and is an error: the file is then left as it
// is.
func OpenOutput(path string, syncInterval time.Duration) (*Output, *Resume, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("open output: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("lock output %s: %w", path, err)
	}
	res, keep, err := scanOutput(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("read output %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat output: %w", err)
	}
	if keep < fi.Size() {
		if err := f.Truncate(keep); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("repair output (truncate to %d bytes): %w", keep, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("repair output: sync: %w", err)
		}
		res.RepairedBytes = fi.Size() - keep
	}
	o := &Output{f: f, interval: syncInterval, stop: make(chan struct{}), stopped: make(chan struct{})}
	go o.syncLoop()
	return o, res, nil
}

// scanOutput reads every line of f and returns what it holds and the size
// to keep: the end of the last good line, when everything after it is torn.
func scanOutput(f *os.File) (*Resume, int64, error) {
	res := &Resume{Done: map[string]Outcome{}}
	br := bufio.NewReaderSize(io.NewSectionReader(f, 0, 1<<62), 256<<10)
	var (
		off     int64 // start of the current line
		keep    int64 // end of the last good line
		badLine int   // first bad line (1-based), 0 when none
	)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			// An unterminated last line is torn, whatever it holds.
			return res, keep, nil
		}
		if err != nil {
			return nil, 0, err
		}
		id, out, ok := parseLine(line)
		switch {
		case !ok && badLine == 0:
			badLine = n
		case ok && badLine != 0:
			return nil, 0, fmt.Errorf("line %d is not an output line but line %d after it is: the file is corrupt in the middle, not torn at the end; move it aside or fix it", badLine, n)
		case ok:
			if _, dup := res.Done[id]; dup {
				res.DuplicateLines++
			} else {
				res.Done[id] = out
			}
			keep = off + int64(len(line))
		}
		off += int64(len(line))
	}
}

// parseLine decodes the fields of an output line that resuming needs.
func parseLine(line []byte) (string, Outcome, bool) {
	var l struct {
		ID       *string `json:"id"`
		Envelope *struct {
			Success *bool `json:"success"`
			Data    struct {
				ErrorCode string `json:"error_code"`
			} `json:"data"`
		} `json:"envelope"`
	}
	if err := json.Unmarshal(line, &l); err != nil || l.ID == nil || *l.ID == "" || l.Envelope == nil || l.Envelope.Success == nil {
		return "", Outcome{}, false
	}
	out := Outcome{Success: *l.Envelope.Success}
	if !out.Success {
		out.Code = l.Envelope.Data.ErrorCode
	}
	return *l.ID, out, true
}

// WriteLine appends line, which must be one JSON value without a newline,
// followed by '\n', in a single write. A write or sync error is returned
// now and by every later call.
func (o *Output) WriteLine(line []byte) error {
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return o.err
	}
	if _, err := o.f.Write(buf); err != nil {
		o.err = fmt.Errorf("write output: %w", err)
		return o.err
	}
	o.dirty = true
	if o.interval <= 0 {
		return o.syncLocked()
	}
	return nil
}

func (o *Output) syncLocked() error {
	if !o.dirty || o.err != nil {
		return o.err
	}
	if err := o.f.Sync(); err != nil {
		o.err = fmt.Errorf("sync output: %w", err)
		return o.err
	}
	o.dirty = false
	return nil
}

func (o *Output) syncLoop() {
	defer close(o.stopped)
	if o.interval <= 0 {
		<-o.stop
		return
	}
	t := time.NewTicker(o.interval)
	defer t.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-t.C:
			o.mu.Lock()
			o.syncLocked()
			o.mu.Unlock()
		}
	}
}

// Close syncs what is unsynced, releases the lock and closes the file. It
// returns the first write or sync error of the Output's life.
func (o *Output) Close() error {
	close(o.stop)
	<-o.stopped
	o.mu.Lock()
	defer o.mu.Unlock()
	err := o.syncLocked()
	if cerr := o.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close output: %w", cerr)
	}
	return err
}
