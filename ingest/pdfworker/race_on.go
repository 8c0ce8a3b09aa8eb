//go:build race

package pdfworker

const raceEnabled = true
