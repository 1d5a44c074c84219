package shapes

import (
	"context"
	"testing"
)

// A test's call does not make Stock any less an entry point.
func TestStock(t *testing.T) {
	if err := Stock(context.Background()); err != nil {
		t.Log(err)
	}
}
