// Package huh is a stand-in for github.com/charmbracelet/huh: forms that ask the user in
// the terminal and return once they are answered.
package huh

import (
	"bufio"
	"errors"
	"os"
	"strings"
)

// ErrUserAborted is returned when the user cancels the form.
var ErrUserAborted = errors.New("user aborted")

// Field is one question of a form.
type Field interface{ ask(*bufio.Reader) error }

// Input asks for one line of text.
type Input struct {
	title    string
	value    *string
	validate func(string) error
}

// NewInput returns an empty text input.
func NewInput() *Input { return &Input{validate: func(string) error { return nil }} }

// Title sets the question.
func (i *Input) Title(t string) *Input { i.title = t; return i }

// Value sets where the answer goes.
func (i *Input) Value(v *string) *Input { i.value = v; return i }

// Validate sets the check the answer must pass.
func (i *Input) Validate(f func(string) error) *Input { i.validate = f; return i }

func (i *Input) ask(r *bufio.Reader) error {
	for {
		os.Stdout.WriteString(i.title + ": ")
		line, err := r.ReadString('\n')
		if err != nil {
			return ErrUserAborted
		}
		line = strings.TrimSpace(line)
		if err := i.validate(line); err != nil {
			os.Stdout.WriteString(err.Error() + "\n")
			continue
		}
		*i.value = line
		return nil
	}
}

// Group is a page of fields.
type Group struct{ fields []Field }

// NewGroup returns a page of fields.
func NewGroup(fields ...Field) *Group { return &Group{fields: fields} }

// Form is a set of pages.
type Form struct{ groups []*Group }

// NewForm returns a form.
func NewForm(groups ...*Group) *Form { return &Form{groups: groups} }

// Run asks every question and returns once all are answered.
func (f *Form) Run() error {
	r := bufio.NewReader(os.Stdin)
	for _, g := range f.groups {
		for _, fl := range g.fields {
			if err := fl.ask(r); err != nil {
				return err
			}
		}
	}
	return nil
}
