// Package tea is a stand-in for github.com/charmbracelet/bubbletea: a terminal program that
// redraws its model at a fixed frame rate until the model quits.
package tea

import (
	"bufio"
	"context"
	"os"
	"time"
)

// Msg is an event: a key the user pressed, a tick.
type Msg interface{}

// Cmd makes a message.
type Cmd func() Msg

// KeyMsg is a key press.
type KeyMsg string

// Quit is the command that ends the program.
func Quit() Msg { return quitMsg{} }

type quitMsg struct{}

// Model is the program's state.
type Model interface {
	Init() Cmd
	Update(Msg) (Model, Cmd)
	View() string
}

// ProgramOption configures a program.
type ProgramOption func(*Program)

// WithContext ends the program when ctx is done.
func WithContext(ctx context.Context) ProgramOption { return func(p *Program) { p.ctx = ctx } }

// Program runs a model.
type Program struct {
	model Model
	ctx   context.Context
}

// NewProgram returns a program of model.
func NewProgram(model Model, opts ...ProgramOption) *Program {
	p := &Program{model: model, ctx: context.Background()}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Run reads keys and redraws the model every frame until it quits.
func (p *Program) Run() (Model, error) {
	keys := make(chan Msg)
	go func() {
		r := bufio.NewReader(os.Stdin)
		for {
			b, err := r.ReadByte()
			if err != nil {
				close(keys)
				return
			}
			keys <- KeyMsg(string(b))
		}
	}()
	frame := time.NewTicker(time.Second / 60)
	defer frame.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return p.model, p.ctx.Err()
		case <-frame.C:
			os.Stdout.WriteString(p.model.View())
		case k, ok := <-keys:
			if !ok {
				return p.model, nil
			}
			var cmd Cmd
			p.model, cmd = p.model.Update(k)
			if cmd != nil {
				if _, quit := cmd().(quitMsg); quit {
					return p.model, nil
				}
			}
		}
	}
}
