// Package ui holds the terminal questions of the CLI.
package ui

import (
	"errors"
	"strings"

	"github.com/charmbracelet/huh"
)

// String asks the user for one line of text; an empty answer is allowed.
func String(title, help string) (string, error) {
	return input(title+"\n"+help, func(string) error { return nil })
}

// Required asks the user for one line of text that must not be empty.
func Required(title string) (string, error) {
	return input(title, func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("an answer is required")
		}
		return nil
	})
}

func input(title string, validate func(string) error) (string, error) {
	var answer string
	form := huh.NewForm(huh.NewGroup(huh.NewInput().Title(title).Validate(validate).Value(&answer)))
	if err := form.Run(); err != nil {
		return "", err
	}
	return answer, nil
}
