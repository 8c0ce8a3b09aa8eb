//go:build !race

package pdfworker

const raceEnabled = false
