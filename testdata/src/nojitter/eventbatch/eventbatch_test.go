package eventbatch

import "testing"

// fakeSender stands in for the collector in tests: it always asks for another try.
type fakeSender struct{ calls int }

func (f *fakeSender) Send(apiKey, host string, events []Event) (bool, error) {
	f.calls++
	return f.calls < 2, nil
}

func TestFlushRetries(t *testing.T) {
	f := &fakeSender{}
	m := &Manager{sender: f, batch: 2, queue: []Event{{Type: "t", Action: "a"}}}
	m.Flush()
	if f.calls != 2 {
		t.Fatalf("calls = %d, want 2", f.calls)
	}
}
