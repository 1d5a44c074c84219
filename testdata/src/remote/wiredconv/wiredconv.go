// Package wiredconv keeps, in an unexported field of an interface type, a value whose named type
// is defined as a slice (type detailValues []any) and converted on the way in: the model must
// look the called method up on that named type, not on the slice it converts (a panic once).
package wiredconv

import "errors"

type Values interface {
	HasValues() bool
	Get(v ...any) error
}

type detailValues []any

func (d detailValues) HasValues() bool     { return len(d) > 0 }
func (d detailValues) Get(v ...any) error { return errors.New("no") }

type appError struct {
	msg     string
	details Values
}

func newAppError(msg string, details ...any) *appError {
	e := &appError{msg: msg}
	e.details = detailValues(details)
	return e
}

func (e *appError) Error() string { return e.msg }

func (e *appError) HasDetails() bool { return e.details != nil && e.details.HasValues() }

func (e *appError) Details(v ...any) error {
	for i := 0; i < 3; i++ {
		if err := e.details.Get(v...); err == nil {
			return nil
		}
	}
	return errors.New("none")
}
