// Package config holds the flag types that idemlint's analyzers share, so that the same
// settings can be given as analyzer flags (go vet, standalone) and from golangci-lint's
// configuration (plugin).
package config

import (
	"slices"
	"strings"
)

// List is a comma-separated list flag whose values extend a built-in default list.
type List struct {
	Default []string           // built in; always present
	Extra   []string           // added by the user
	Check   func(string) error // validates each added value, when set
}

// Values returns the default values followed by the user's.
func (l *List) Values() []string { return append(slices.Clip(l.Default), l.Extra...) }

// String implements flag.Value; it shows only the user's additions.
func (l *List) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(l.Extra, ",")
}

// Set implements flag.Value: it adds the comma-separated values of s.
func (l *List) Set(s string) error {
	for v := range strings.SplitSeq(s, ",") {
		v = strings.TrimSpace(v)
		if v == "" || slices.Contains(l.Extra, v) {
			continue
		}
		if l.Check != nil {
			if err := l.Check(v); err != nil {
				return err
			}
		}
		l.Extra = append(l.Extra, v)
	}
	return nil
}

// Reset drops the user's additions.
func (l *List) Reset() { l.Extra = nil }
