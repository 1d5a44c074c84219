package remote

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// The -remote.report output: one line per remote call, saying what bounds it.

// OwnedAs says how a function's fact names the default client o, when it sends through it
// (Passed.Owned): a check tells by it whether a call's client is this package's own.
func (o *Origin) OwnedAs(fset *token.FileSet) string { return o.describe(fset, token.NoPos) }

// describe says what an origin is: "http.DefaultClient", "the http.Client made at line 12",
// and when it is a default the caller may replace, so.
func (o *Origin) describe(fset *token.FileSet, from token.Pos) string {
	if o.Fallback {
		plain := *o
		plain.Fallback = false
		return plain.describe(fset, from) + ", the default when no client is given"
	}
	at := where(fset, o.Pos, from)
	switch o.Kind {
	case Default:
		return o.Name
	case Constructor:
		return fmt.Sprintf("the %s returned by %s at %s", o.Type, o.Name, at)
	case Inside:
		return fmt.Sprintf("the %s %s makes for itself", o.Type, o.Name)
	case ZeroVar:
		return fmt.Sprintf("the zero %s in variable %s (%s)", o.Type, o.Name, at)
	case ZeroField:
		return fmt.Sprintf("the zero %s in field %s (%s)", o.Type, o.Name, at)
	}
	if o.CopyOf != "" {
		return fmt.Sprintf("the copy of %s made at %s", o.CopyOf, at)
	}
	return fmt.Sprintf("the %s made at %s", o.Type, at)
}

// where renders pos for a line about something at from: "line 12" in the same file,
// "client.go:12" in another.
func where(fset *token.FileSet, pos, from token.Pos) string {
	p := fset.Position(pos)
	if !p.IsValid() {
		return "an unknown position"
	}
	if f := fset.Position(from); f.IsValid() && f.Filename == p.Filename {
		return fmt.Sprintf("line %d", p.Line)
	}
	name := p.Filename
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return fmt.Sprintf("%s:%d", name, p.Line)
}

// summary describes the call for the -remote.report debugging output.
func (c *Call) summary(fset *token.FileSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s call %s", c.Kind, c.Name)
	if c.Method != "" {
		fmt.Fprintf(&b, " (%s)", c.Method)
	}
	if c.Stream {
		b.WriteString(" (stream)")
	}
	if c.Streams {
		b.WriteString(" (read as a stream)")
	}
	if c.Session {
		b.WriteString(" (a session: the connection is read in a loop)")
	}
	if c.Via != nil {
		fmt.Fprintf(&b, " via %s", flow.Name(c.Func, c.Func.Pkg()))
	}
	fmt.Fprintf(&b, ": %s", c.Timeout.Status)
	switch c.Contract.Kind {
	case ContextFree:
		fmt.Fprintf(&b, " [the context-free form of %s]", c.Contract.Name)
	case Implements:
		fmt.Fprintf(&b, " [implements %s]", c.Contract.Name)
	case CalledFrom:
		fmt.Fprintf(&b, " [called only from %s]", c.Contract.Name)
	}
	if c.Loopback {
		b.WriteString(" [loopback]")
	}
	t := c.Timeout
	switch t.Status {
	case Bounded:
		fmt.Fprintf(&b, " by %s", t.By)
	case Unbounded:
		var why []string
		if t.Client != nil {
			why = append(why, t.Client.describe(fset, c.Pos()))
		}
		switch t.Context.Kind {
		case 0:
		case NoContext:
			why = append(why, "no context")
		default:
			why = append(why, "context from "+t.Context.String())
		}
		if len(why) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(why, "; "))
		}
	case Unknown:
		if t.Param >= 0 {
			kind := "context"
			switch {
			case t.Request:
				kind = "request"
			case t.ParamClient != "":
				kind = "client"
			}
			through := ""
			if t.Client != nil {
				through = "; through " + t.Client.describe(fset, c.Pos())
			}
			fmt.Fprintf(&b, " (%s from parameter %d%s)", kind, t.Param, through)
		}
	}
	return b.String()
}
