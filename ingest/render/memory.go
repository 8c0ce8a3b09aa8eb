package render

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"time"

	"github.com/digestd/digestd/internal/procstat"
)

// memoryStep is how often the browser's renderer processes are measured
// against Config.MemoryBytes.
const memoryStep = 100 * time.Millisecond

// watchMemory measures, every memoryStep while a page renders, until ctx
// ends, the resident memory of each renderer process the browser (process
// id browser) started, and kills one past limit bytes: its page crashes
// and fails, and the browser starts another renderer for the next page. It bounds what V8's
// heap limit does not: the DOM and layout, decoded images, canvas, and the
// backing stores of ArrayBuffers and WebAssembly memory. Processes are read
// from /proc; where there is none, it returns at once.
func (r *Renderer) watchMemory(ctx context.Context, browser int, limit int64) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		r.cfg.Logger.Warn("renderer memory is not bounded: no /proc on this system")
		return
	}
	t := time.NewTicker(memoryStep)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if len(r.pool) == 0 {
			// No page is rendering: a renderer grows only by a page's
			// scripts and content.
			continue
		}
		for _, pid := range renderers(browser) {
			rss, _, err := procstat.Memory(pid)
			if err != nil || rss <= limit {
				continue
			}
			if p, err := os.FindProcess(pid); err == nil && p.Kill() == nil {
				r.cfg.Logger.Warn("renderer stopped past its memory limit", "pid", pid, "resident_bytes", rss, "limit_bytes", limit)
			}
		}
	}
}

// renderers returns the ids of the renderer processes (--type=renderer)
// descended from process root.
func renderers(root int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentOf(pid); ok {
			parent[pid] = pp
		}
	}
	var out []int
	for pid := range parent {
		if !descends(pid, root, parent) {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err == nil && bytes.Contains(cmd, []byte("--type=renderer")) {
			out = append(out, pid)
		}
	}
	return out
}

// descends reports whether pid is a descendant of root in the parent map.
func descends(pid, root int, parent map[int]int) bool {
	for range len(parent) {
		pp, ok := parent[pid]
		if !ok || pp <= 1 {
			return false
		}
		if pp == root {
			return true
		}
		pid = pp
	}
	return false
}

// parentOf returns process pid's parent from /proc/PID/stat, whose second
// field (the command, in parentheses) may hold spaces and parentheses.
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(string(f[1]))
	return pp, err == nil
}
