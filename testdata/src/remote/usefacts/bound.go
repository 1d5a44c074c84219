package usefacts

import (
	"net/http"
	"os"
	"strings"
	"time"

	"remote/facts"
)

// headerBound sends, through a client whose transport bounds the answer's header, a body in
// memory (bounded) and a file (not: the header's wait starts once the file is written).
func headerBound(f *os.File) {
	req, _ := http.NewRequest(http.MethodPost, "u", strings.NewReader("{}"))
	facts.SendBounded(req) // want `HTTP call http.Client.Do via SendBounded: bounded by http.Transport.ResponseHeaderTimeout`
	up, _ := http.NewRequest(http.MethodPut, "u", f)
	facts.SendBounded(up) // want `HTTP call http.Client.Do via SendBounded: unbounded \(context from http.NewRequest\)`
}

// instrumented sends through clients an instrumenting helper of another package hands back.
func instrumented() {
	c := facts.Instrument(&http.Client{})
	c.Get("u") // want `HTTP call http.Client.Get \(GET\): unbounded \(the http.Client made at line 23; no context\)`
	t := facts.Instrument(&http.Client{Timeout: time.Second})
	t.Get("u") // want `HTTP call http.Client.Get \(GET\): bounded by http.Client.Timeout`
	s := facts.InstrumentTimed(&http.Client{})
	s.Get("u") // want `HTTP call http.Client.Get \(GET\): unknown`
}
