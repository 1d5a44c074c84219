package knowledge

import (
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Terminal prompts: the functions and methods, by package, that return once the user has
// answered (fmt.Scan; a form of huh; a bubbletea program, whose Run returns when its model
// quits). A loop that asks the user before it goes round goes at the user's pace: its wait
// is the user's, not a delay the program chose, and the timers such a library keeps to draw
// the screen are not a wait between attempts.
var prompts = map[string][]string{
	"fmt":                                   {"Scan", "Scanf", "Scanln"},
	"golang.org/x/term":                     {"ReadPassword", "Terminal.ReadLine", "Terminal.ReadPassword"},
	"golang.org/x/crypto/ssh/terminal":      {"ReadPassword", "Terminal.ReadLine", "Terminal.ReadPassword"},
	"github.com/charmbracelet/huh":          huhRuns,
	"charm.land/huh/v2":                     huhRuns,
	"github.com/charmbracelet/bubbletea":    teaRuns,
	"github.com/charmbracelet/bubbletea/v2": teaRuns,
	"charm.land/bubbletea/v2":               teaRuns,
	"github.com/AlecAivazis/survey/v2":      {"Ask", "AskOne"},
	"github.com/manifoldco/promptui":        {"Prompt.Run", "Select.Run", "Select.RunCursorAt", "SelectWithAdd.Run"},
	"github.com/c-bata/go-prompt":           {"Input", "Prompt.Input", "Prompt.Run"},
}

var (
	huhRuns = []string{"Run", "Form.Run", "Form.RunWithContext", "Input.Run", "Text.Run", "Select.Run",
		"MultiSelect.Run", "Confirm.Run", "Note.Run", "FilePicker.Run"}
	teaRuns = []string{"Program.Run", "Program.Start", "Program.StartReturningModel"}
)

// ReadsTerminal reports whether fn waits for what the user types (see prompts).
func ReadsTerminal(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	id := flow.ID(fn)
	name := id.Name
	if id.Recv != "" {
		name = id.Recv + "." + id.Name
	}
	return slices.Contains(prompts[id.Pkg], name)
}
