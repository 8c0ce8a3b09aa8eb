package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/wire"
)

// batchlessRevision is the MCP revision that dropped JSON-RPC batches: a
// client that speaks it or a later one has its batch judged by the SDK
// (which refuses it).
const batchlessRevision = "2025-06-18"

// answerBatches answers a JSON-RPC batch (a POST whose body is an array)
// one message at a time: each message goes to next as a request of its
// own, and its answer is written out as an element of the answer's array
// before the next message runs, so what the answer holds in memory at once
// is one message's answer, whatever the batch asks for. A batch of more
// than wire.MaxBatchEntries messages is 413 TOO_LARGE before any runs. A
// message whose own request fails gets a JSON-RPC error carrying the
// failure's envelope, and an element that is not a JSON-RPC message (1, "x",
// null) an invalid-request error (-32600) answering to id null, as JSON-RPC
// 2.0 asks; messages that need no answer (notifications) get none, and a
// batch of them only is 202 Accepted. A body that is not an array passes to
// next as it is.
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
// its JSON-RPC answer, or nil when it has none. An element that is no
// JSON-RPC message is answered without running.
func runOne(r *http.Request, entry []byte, next http.Handler) []byte {
	if answer := invalidMessage(entry); answer != nil {
		return answer
	}
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
	rpcErr := map[string]any{"code": jsonrpc.CodeInvalidRequest, "message": message}
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

// invalidMessage returns the JSON-RPC error (-32600, invalid request)
// answering a message that is not a JSON-RPC 2.0 request, notification or
// response as the SDK reads one (a number, a string, null, an object without
// "jsonrpc": "2.0", an id that is neither a number nor a string, …), or nil
// when msg is one. The error answers to msg's id when it has one that is an
// id, else to null.
func invalidMessage(msg []byte) []byte {
	if _, err := jsonrpc.DecodeMessage(msg); err == nil {
		return nil
	}
	return rpcError(messageID(msg), jsonrpc.CodeInvalidRequest, fault.E(fault.InvalidFormat,
		`not a JSON-RPC 2.0 message: an object with "jsonrpc": "2.0" and a "method" (a request or notification) or an "id" (a response)`))
}

// messageID returns msg's id when msg is an object whose id is a number or a
// string, else null.
func messageID(msg []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) == nil && len(m.ID) > 0 && (m.ID[0] == '"' || m.ID[0] == '-' || m.ID[0] >= '0' && m.ID[0] <= '9') {
		return m.ID
	}
	return json.RawMessage("null")
}

// rpcError returns the JSON-RPC error answering to id with code, whose
// message is err's and whose data is err's response-v2 envelope, as a tool
// error carries it.
func rpcError(id json.RawMessage, code int, err error) []byte {
	env, _ := wire.Failure(err, wire.Meta{}, wire.NewRequestID(), time.Now())
	data, _ := json.Marshal(env)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": *env.Error, "data": json.RawMessage(data)}})
	return b
}
