// Package signin asks the user in the terminal for a workspace token, or a way to sign in,
// and checks it with the server, asking again while the server refuses: each round waits for
// the user's answer, so the loop goes at the user's pace, not at once. Without a question the
// same loop hammers the server.
package signin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"nojitter/signin/ui"
)

var errNoToken = errors.New("no token given")

// Client talks to the workspace API.
type Client struct {
	base string
	http *http.Client
}

// New returns a client of the API at base.
func New(base string) *Client {
	return &Client{base: strings.TrimSuffix(base, "/"), http: &http.Client{Timeout: 20 * time.Second}}
}

type whoami struct {
	User      string `json:"user"`
	Workspace string `json:"workspace"`
}

func (c *Client) verify(ctx context.Context, token string) (*whoami, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/api/auth.test", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("auth.test: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return nil, fmt.Errorf("auth.test: %s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	var w whoami
	if err := json.NewDecoder(resp.Body).Decode(&w); err != nil {
		return nil, fmt.Errorf("auth.test: decode: %w", err)
	}
	return &w, nil
}

// ---- Not reported: every round waits for what the user types ----

// Token asks for a token until the server takes one, or the user gives none.
func Token(ctx context.Context, c *Client) (string, error) {
	for {
		token, err := ui.String("Workspace token", "Paste the token from the workspace's admin page.")
		if err != nil {
			return "", err
		}
		if token == "" {
			return "", errNoToken
		}
		w, err := c.verify(ctx, token)
		if err != nil {
			fmt.Fprintln(os.Stderr, "token refused:", err)
			continue
		}
		log.Printf("signed in as %s to %s", w.User, w.Workspace)
		return token, nil
	}
}

type menu struct {
	items     []string
	cursor    int
	choice    string
	cancelled bool
}

func (m *menu) Init() tea.Cmd { return nil }

func (m *menu) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg {
	case tea.KeyMsg("j"):
		m.cursor = (m.cursor + 1) % len(m.items)
	case tea.KeyMsg("k"):
		m.cursor = (m.cursor + len(m.items) - 1) % len(m.items)
	case tea.KeyMsg("\r"):
		m.choice = m.items[m.cursor]
		return m, tea.Quit
	case tea.KeyMsg("q"):
		m.cancelled = true
		return m, tea.Quit
	}
	return m, nil
}

func (m *menu) View() string {
	var b strings.Builder
	for i, it := range m.items {
		if i == m.cursor {
			b.WriteString("> ")
		} else {
			b.WriteString("  ")
		}
		b.WriteString(it + "\n")
	}
	return b.String()
}

// Menu shows the ways to sign in; one that fails brings the menu back.
func Menu(ctx context.Context, c *Client) error {
	ways := map[string]func(context.Context) (string, error){
		"token": func(ctx context.Context) (string, error) { return ui.Required("Token") },
		"file": func(ctx context.Context) (string, error) {
			b, err := os.ReadFile(os.ExpandEnv("$HOME/.workspace-token"))
			return strings.TrimSpace(string(b)), err
		},
	}
	for {
		m := &menu{items: []string{"token", "file"}}
		if _, err := tea.NewProgram(m, tea.WithContext(ctx)).Run(); err != nil {
			return err
		}
		if m.cancelled {
			return nil
		}
		token, err := ways[m.choice](ctx)
		if err != nil {
			log.Printf("sign in with %s: %v", m.choice, err)
			continue
		}
		if _, err := c.verify(ctx, token); err != nil {
			log.Printf("sign in with %s: %v", m.choice, err)
			continue
		}
		return nil
	}
}

// ---- Reported: nothing asks the user, so the loop goes round at once ----

// TokenFromEnv checks the token of the environment, again when the check fails.
func TokenFromEnv(ctx context.Context, c *Client) (string, error) {
	token := os.Getenv("WORKSPACE_TOKEN")
	var err error
	for attempt := 0; attempt < 5; attempt++ { // related "signin.go:161: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		var w *whoami
		if w, err = c.verify(ctx, token); err == nil {
			log.Printf("signed in as %s", w.User)
			return token, nil
		}
		log.Printf("attempt %d: %v", attempt+1, err)
	}
	return "", err
}
