package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/digestd/digestd/wire"
)

// batchlessRevision is the MCP revision that dropped JSON-RPC batches: a
// client that speaks it or a later one has its batch judged by the SDK
// (which refuses it).
const batchlessRevision = "2025-06-18"

// jsonrpcInvalidRequest is JSON-RPC 2.0's error code for a request the
// server cannot take.
const jsonrpcInvalidRequest = -32600

// answerBatches answers a JSON-RPC batch (a POST whose body is an array)
// one message at a time: each message goes to next as a request of its
// own, and its answer is written out as an element of the answer's array
// before the next message runs, so what the answer holds in memory at once
// is one message's answer, whatever the batch asks for. A batch of more
// than wire.MaxBatchEntries messages is 413 TOO_LARGE before any runs. A
// message whose own request fails gets a JSON-RPC error carrying the
// failure's envelope; messages that need no answer (notifications) get
// none, and a batch of them only is 202 Accepted. A body that is not an
// array passes to next as it is.
func answerBatches(maxBody int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		br := bufio.NewReader(r.Body)
		if !startsArray(br) {
			r.Body = struct {
				io.Reader
				io.Closer
			}{br, r.Body}
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, io.NopCloser(br), maxBody))
		if err != nil {
			err = wire.BodyError(err)
		}
		var entries [][]byte
		if err == nil {
			entries, err = wire.BatchEntries(body)
		}
		if err != nil {
			env, status := wire.Failure(err, wire.Meta{}, requestID(r), start)
			wire.Write(w, status, env)
			return
		}
		if entries == nil || r.Header.Get("Mcp-Protocol-Version") >= batchlessRevision {
			// Not a well-formed array, or a batch from a client of a
			// revision without batches: the transport says why.
			r.Body = io.NopCloser(bytes.NewReader(body))
			next.ServeHTTP(w, r)
			return
		}
		answerEach(w, r, entries, next)
	})
}

// startsArray reports whether the first byte after white space is '['.
func startsArray(br *bufio.Reader) bool {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return false
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			br.Discard(1)
		default:
			return b[0] == '['
		}
	}
}

// answerEach runs each message of a batch through next and streams the
// answers out as one JSON array.
func answerEach(w http.ResponseWriter, r *http.Request, entries [][]byte, next http.Handler) {
	opened := false
	for _, entry := range entries {
		if r.Context().Err() != nil {
			break
		}
		answer := runOne(r, entry, next)
		if answer == nil {
			continue
		}
		if !opened {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-cache, no-transform")
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("["))
			opened = true
		} else {
			w.Write([]byte(","))
		}
		w.Write(answer)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	if !opened {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Write([]byte("]\n"))
}

// runOne serves one message of a batch as a request of its own and returns
// its JSON-RPC answer, or nil when it has none.
func runOne(r *http.Request, entry []byte, next http.Handler) []byte {
	one := r.Clone(r.Context())
	one.Body = io.NopCloser(bytes.NewReader(entry))
	one.ContentLength = int64(len(entry))
	rec := &recorder{header: http.Header{}}
	next.ServeHTTP(rec, one)
	var msg struct {
		JSONRPC string `json:"jsonrpc"`
	}
	if rec.status == http.StatusAccepted {
		return nil
	}
	if strings.HasPrefix(rec.header.Get("Content-Type"), "application/json") && json.Unmarshal(rec.body.Bytes(), &msg) == nil && msg.JSONRPC != "" {
		return bytes.TrimSpace(rec.body.Bytes())
	}
	// The message's request failed before a JSON-RPC answer: its body is
	// the failure's envelope, answered to the message's id.
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(entry, &req) != nil || len(req.ID) == 0 {
		return nil
	}
	var env wire.Envelope
	message := http.StatusText(rec.status)
	if json.Unmarshal(rec.body.Bytes(), &env) == nil && env.Error != nil {
		message = *env.Error
	}
	rpcErr := map[string]any{"code": jsonrpcInvalidRequest, "message": message}
	if json.Valid(rec.body.Bytes()) {
		rpcErr["data"] = json.RawMessage(rec.body.Bytes())
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": rpcErr})
	return b
}

// recorder holds one message's answer.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *recorder) Header() http.Header { return c.header }

func (c *recorder) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}

func (c *recorder) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c.body.Write(b)
}

// boundStdioBatches passes the newline-delimited messages read from in on
// to the reader it returns, except a batch of more than
// wire.MaxBatchEntries messages: that line is answered on out at once with
// a JSON-RPC error (id null) carrying the TOO_LARGE envelope, and dropped.
// A line longer than maxLine passes as it is, for the transport to refuse.
// out must be the writer the transport writes its answers to, so that
// lines do not interleave. The copy stops when in ends or the returned
// reader is closed.
func boundStdioBatches(in io.Reader, out io.Writer, maxLine int) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		inLong := false // inside a line longer than maxLine, passed as it is
		for {
			line, err := readLine(br, maxLine)
			whole := bytes.HasSuffix(line, []byte("\n")) || err != nil
			if len(line) > 0 && !inLong && whole && refuseBatch(line, out) {
				line = nil
			}
			if len(line) > 0 {
				if _, werr := pw.Write(line); werr != nil {
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			inLong = !whole
		}
	}()
	return pr
}

// refuseBatch answers line on out with a JSON-RPC error (id null) carrying
// the TOO_LARGE envelope when it is a batch of more than
// wire.MaxBatchEntries messages, and reports whether it did.
func refuseBatch(line []byte, out io.Writer) bool {
	_, err := wire.BatchEntries(line)
	if err == nil {
		return false
	}
	env, _ := wire.Failure(err, wire.Meta{}, wire.NewRequestID(), time.Now())
	data, _ := json.Marshal(env)
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": jsonrpcInvalidRequest, "message": *env.Error, "data": json.RawMessage(data)}})
	out.Write(append(msg, '\n'))
	return true
}

// readLine returns the next line with its newline; a line longer than max
// is returned in pieces of about max bytes, the last with the newline. At
// the end of in it returns what is left with io.EOF.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull && len(line) < max {
			continue
		}
		if err == bufio.ErrBufferFull {
			err = nil
		}
		return line, err
	}
}

// lockedWriter serializes writes from the transport and from
// boundStdioBatches.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
