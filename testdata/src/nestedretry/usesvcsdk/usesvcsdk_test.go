package usesvcsdk

import (
	"context"
	"testing"

	"nestedretry/svcsdk"
)

// fakeOrders stands in for the SDK's service in tests; it does not make the package's own
// calls run it.
type fakeOrders struct{ created []svcsdk.Order }

func (f *fakeOrders) Create(_ context.Context, o svcsdk.Order, _ string) (*svcsdk.Order, error) {
	f.created = append(f.created, o)
	return &o, nil
}

func TestSeedOrder(t *testing.T) {
	f := &fakeOrders{}
	c := &svcsdk.Client{Orders: f}
	if _, err := SeedOrder(context.Background(), c, svcsdk.Order{ID: "o1", Amount: 5}, "k1"); err != nil {
		t.Fatal(err)
	}
	if len(f.created) != 1 {
		t.Fatalf("created %d orders", len(f.created))
	}
}
