// Package htmlspeed compares the speed of digestd's HTML extractor with
// go-trafilatura's on the trafilatura evaluation pages, in one run and on
// one goroutine each. It is a module of its own so that go-trafilatura
// never becomes a dependency of digestd: run it with scripts/bench-html.sh.
package htmlspeed
