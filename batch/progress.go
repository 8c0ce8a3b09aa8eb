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
// terminal): done/total, rate, ETA and failures so far.
func NewBarProgress(w io.Writer) Progress { return &barProgress{w: w} }

type barProgress struct {
	w      io.Writer
	bar    *progressbar.ProgressBar
	failed int
}

func (p *barProgress) Start(total int) {
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("digesting"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("docs"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
	)
}

func (p *barProgress) Finished(ok bool) {
	if !ok {
		p.failed++
		p.bar.Describe(fmt.Sprintf("%d failed", p.failed))
	}
	p.bar.Add(1)
}

func (p *barProgress) Stop() {
	if !p.bar.IsFinished() {
		p.bar.Exit()
		fmt.Fprintln(p.w)
	}
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
