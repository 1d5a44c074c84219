// Package use names some members of ssapkg/lib: a function, a generic function, a variable,
// methods through a value, a method value and an embedded field.
package use

import (
	"context"
	"strconv"

	"ssapkg/lib"
)

func Run(ctx context.Context) ([]string, error) {
	c := lib.New()
	if err := c.Do(ctx, lib.Endpoint); err != nil {
		return nil, err
	}
	do := c.Do
	_ = do(ctx, "/v1")
	e := lib.Embedded{Client: c}
	_ = e.Name()
	return lib.Map([]int{1, 2}, strconv.Itoa), nil
}

var constructor = lib.New
