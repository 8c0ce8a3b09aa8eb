package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/wire"
)

// screenStdio passes the newline-delimited messages read from in on to the
// reader it returns, the SDK's stdio transport, except the lines that
// transport would end the session over. Each of those is answered on out at
// once with a JSON-RPC error, as JSON-RPC 2.0 asks, and dropped, and the
// session goes on:
//
//   - a line that is not JSON: parse error (-32700), id null;
//   - a line longer than maxLine bytes, its newline included: TOO_LARGE
//     (-32600), id null;
//   - a message that is not a JSON-RPC 2.0 message (1, "x", null, {}):
//     invalid request (-32600), to its id when it has one;
//   - a batch that is empty, of more than wire.MaxBatchEntries messages, or
//     sent once the session speaks a revision without batches
//     (batchlessRevision and later): invalid request, id null;
//   - an element of a batch that is not a JSON-RPC message, or whose id an
//     earlier element holds: invalid request, in one array; the batch's
//     other elements pass on as a batch.
//
// One such line is left to the transport, which ends the session over it: a
// batch holding the id of a request of an earlier batch still running.
// Every error carries the response-v2 envelope as its data. out must be the
// writer the transport writes its answers to, so that lines do not
// interleave. The copy stops when in ends or the returned reader is closed.
func screenStdio(in io.Reader, out io.Writer, maxLine int) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		s := &stdioScreen{out: out, maxLine: maxLine}
		long := false // inside a line longer than maxLine, dropped to its end
		for {
			line, err := readLine(br, maxLine)
			whole := bytes.HasSuffix(line, []byte("\n")) || err != nil
			switch {
			case long || len(line) > maxLine || !whole:
				// A piece without its newline is maxLine bytes or more:
				// with the newline, the line is over the bound.
				line, long = nil, !whole
				if whole {
					s.answer(rpcError(json.RawMessage("null"), jsonrpc.CodeInvalidRequest,
						fault.E(fault.TooLarge, fmt.Sprintf("a JSON-RPC message over stdio is at most %d bytes, its newline included", maxLine)).With("limit_bytes", maxLine)))
				}
			case len(bytes.TrimSpace(line)) > 0:
				line = s.screen(line)
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
		}
	}()
	return pr
}

// stdioScreen judges the lines of one stdio session.
type stdioScreen struct {
	out     io.Writer
	maxLine int
	// initialized is set by the session's first initialize request, and
	// batchless when that request asks for a revision without batches or
	// one the SDK does not speak (it then answers with its latest, which
	// has none).
	initialized, batchless bool
}

// screen returns what of line passes on to the transport (line itself, a
// batch rebuilt without its bad elements, or nothing), having answered the
// rest on s.out.
func (s *stdioScreen) screen(line []byte) []byte {
	if !json.Valid(line) {
		s.answer(rpcError(json.RawMessage("null"), jsonrpc.CodeParseError,
			fault.E(fault.InvalidFormat, "the line is not JSON: over stdio each JSON-RPC message is one line of JSON")))
		return nil
	}
	entries, err := wire.BatchEntries(line)
	if err != nil {
		s.answer(rpcError(json.RawMessage("null"), jsonrpc.CodeInvalidRequest, err))
		return nil
	}
	if entries == nil {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
			s.answer(rpcError(json.RawMessage("null"), jsonrpc.CodeInvalidRequest,
				fault.E(fault.InvalidFormat, "an empty JSON-RPC batch: a batch holds one message or more")))
			return nil
		}
		if answer := invalidMessage(line); answer != nil {
			s.answer(answer)
			return nil
		}
		s.note(line)
		return line
	}
	if s.batchless {
		s.answer(rpcError(json.RawMessage("null"), jsonrpc.CodeInvalidRequest,
			fault.E(fault.InvalidFormat, fmt.Sprintf("JSON-RPC batches are not part of MCP %s and later, which this session speaks: send each message on its own line", batchlessRevision))))
		return nil
	}
	var answers, pass [][]byte
	seen := map[string]bool{}
	for _, e := range entries {
		if answer := invalidMessage(e); answer != nil {
			answers = append(answers, answer)
			continue
		}
		if id := callID(e); id != "" {
			if seen[id] {
				answers = append(answers, rpcError(json.RawMessage(id), jsonrpc.CodeInvalidRequest,
					fault.E(fault.InvalidFormat, "a batch holds two requests with the same id")))
				continue
			}
			seen[id] = true
		}
		s.note(e)
		pass = append(pass, e)
	}
	if len(answers) == 0 {
		return line
	}
	s.answer(append(append([]byte("["), bytes.Join(answers, []byte(","))...), ']'))
	if len(pass) == 0 {
		return nil
	}
	return append(append(append([]byte("["), bytes.Join(pass, []byte(","))...), ']'), '\n')
}

// note records the protocol revision the session's first initialize
// request asks for.
func (s *stdioScreen) note(msg []byte) {
	if s.initialized {
		return
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method != "initialize" || callID(msg) == "" {
		return
	}
	v := m.Params.ProtocolVersion
	s.initialized = true
	s.batchless = v >= batchlessRevision || !slices.Contains(mcp.SupportedProtocolVersions(), v)
}

// answer writes one answer line on s.out.
func (s *stdioScreen) answer(msg []byte) {
	s.out.Write(append(msg, '\n'))
}

// callID returns the id of a request (a message with a method and an
// id), as its JSON, or "" for a notification or a response.
func callID(msg []byte) string {
	var m struct {
		Method *string         `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method == nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return ""
	}
	return string(m.ID)
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

// lockedWriter serializes writes from the transport and from screenStdio.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
