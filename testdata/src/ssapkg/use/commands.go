package use

import (
	"context"

	"ssapkg/lib"
)

type command struct {
	name   string
	action func(ctx context.Context, args []string) error
}

// commands is a table of actions written as closures in a package variable's initialiser,
// as command-line frameworks and handler tables are.
var commands = []command{
	{name: "fetch", action: func(ctx context.Context, args []string) error {
		c := lib.New()
		for _, a := range args {
			if err := c.Do(ctx, a); err != nil {
				return err
			}
		}
		return nil
	}},
	{name: "each", action: func(ctx context.Context, args []string) error {
		each := func(a string) error { return lib.New().Do(ctx, a) }
		return each(args[0])
	}},
}
