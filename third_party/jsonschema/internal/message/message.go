// Package message stands in for golang.org/x/text/message in elemctl's copy
// of the validator: its messages are English only, and the x/text tables
// cost every elemctl start their package initialisation.
package message

import "fmt"

// Printer formats messages; it has the one method the validator uses.
type Printer struct{}

// NewPrinter returns an English printer.
func NewPrinter() *Printer { return &Printer{} }

// Sprintf formats like fmt.Sprintf.
func (*Printer) Sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
