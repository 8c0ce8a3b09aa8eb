package batch

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress is told how a run advances. Start is called once with the number
// of sources to digest, Finished after each source's line is written, Stop
// once at the end. Calls come from one goroutine.
type Progress interface {
	Start(total int)
	Finished(ok bool)
	Stop()
}

type noProgress struct{}

func (noProgress) Start(int)     {}
func (noProgress) Finished(bool) {}
func (noProgress) Stop()         {}

// NewBarProgress returns a Progress that draws a progress bar on w (a
// terminal): done/total, rate, ETA and failures so far. Logs written while
// it runs must go through its Write, which lifts the bar off its line, writes
// the log line and draws the bar again below it.
func NewBarProgress(w io.Writer) *BarProgress { return &BarProgress{w: w} }

// BarProgress is the terminal's Progress; see NewBarProgress.
type BarProgress struct {
	mu     sync.Mutex
	w      io.Writer
	bar    *progressbar.ProgressBar
	start  time.Time
	done   int
	failed int
}

// minRateWindow is how long a run goes before its rate is shown: the first
// sources (resumed ids, cache hits) finish in microseconds and would give an
// absurd rate.
const minRateWindow = time.Second

func (p *BarProgress) Start(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start = time.Now()
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("digesting"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
	)
}

// describe is the text after the bar: the rate once minRateWindow has
// passed, and the failures so far.
func (p *BarProgress) describe() string {
	d := ""
	if el := time.Since(p.start); el >= minRateWindow {
		d = fmt.Sprintf("%.1f docs/s", float64(p.done)/el.Seconds())
	}
	if p.failed > 0 {
		if d != "" {
			d += ", "
		}
		d += fmt.Sprintf("%d failed", p.failed)
	}
	return d
}

func (p *BarProgress) Finished(ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if !ok {
		p.failed++
	}
	p.bar.Describe(p.describe())
	p.bar.Add(1)
}

func (p *BarProgress) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.bar.IsFinished() {
		p.bar.Exit()
		fmt.Fprintln(p.w)
	}
}

// Write writes a log line above the bar: the bar is cleared from its line,
// the log written, and the bar drawn again.
func (p *BarProgress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil || p.bar.IsFinished() {
		return p.w.Write(b)
	}
	p.bar.Clear()
	n, err := p.w.Write(b)
	p.bar.RenderBlank()
	return n, err
}

// NewLineProgress returns a Progress that prints one plain line on w every
// interval (for logs, not terminals): done/total, failures, rate and ETA.
func NewLineProgress(w io.Writer, interval time.Duration) Progress {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	return &lineProgress{w: w, interval: interval}
}

type lineProgress struct {
	w        io.Writer
	interval time.Duration
	start    time.Time
	stop     chan struct{}
	stopped  chan struct{}

	mu                  sync.Mutex
	total, done, failed int
}

func (p *lineProgress) Start(total int) {
	p.total, p.start = total, time.Now()
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.stopped)
		t := time.NewTicker(p.interval)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.print()
			}
		}
	}()
}

func (p *lineProgress) print() {
	p.mu.Lock()
	done, failed, total := p.done, p.failed, p.total
	p.mu.Unlock()
	el := time.Since(p.start)
	rate := float64(done) / el.Seconds()
	eta := "?"
	if rate > 0 {
		eta = time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "batch: %d/%d done, %d failed, %.1f docs/s, elapsed %s, ETA %s\n",
		done, total, failed, rate, el.Round(time.Second), eta)
}

func (p *lineProgress) Finished(ok bool) {
	p.mu.Lock()
	p.done++
	if !ok {
		p.failed++
	}
	p.mu.Unlock()
}

func (p *lineProgress) Stop() {
	close(p.stop)
	<-p.stopped
}
