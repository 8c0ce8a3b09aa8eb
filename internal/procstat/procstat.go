// Package procstat reads a process's memory use from /proc (Linux), for the
// renderer's memory watcher, the load tool and the tests that bound the
// server's memory.
package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Memory returns the process's resident set size now (VmRSS) and at its
// peak (VmHWM), in bytes.
func Memory(pid int) (rss, peak int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	if rss == 0 {
		return 0, 0, fmt.Errorf("no VmRSS for process %d", pid)
	}
	return rss, peak, nil
}
