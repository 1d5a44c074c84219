package main

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

const events = `{"Action":"start","Package":"a"}
{"Action":"run","Package":"a","Test":"TestDB"}
{"Action":"output","Package":"a","Test":"TestDB","Output":"    db_test.go:3: IDEMLINT_PG_DSN not set\n"}
{"Action":"skip","Package":"a","Test":"TestDB","Elapsed":0}
{"Action":"run","Package":"a","Test":"TestY"}
{"Action":"run","Package":"a","Test":"TestY/sub"}
{"Action":"output","Package":"a","Test":"TestY/sub","Output":"boom\n"}
{"Action":"fail","Package":"a","Test":"TestY/sub","Elapsed":1}
{"Action":"fail","Package":"a","Test":"TestY","Elapsed":1}
{"Action":"fail","Package":"a","Elapsed":1.5}
{"Action":"start","Package":"b"}
{"Action":"run","Package":"b","Test":"TestZ"}
{"Action":"pass","Package":"b","Test":"TestZ"}
{"Action":"pass","Package":"b","Elapsed":0.2}
{"Action":"start","Package":"c"}
{"Action":"pass","Package":"c","Elapsed":0}
{"Action":"exit","Output":"1"}
`

func TestFollow(t *testing.T) {
	var out strings.Builder
	ok := follow(strings.NewReader(events), &out, "scripts/test", time.Minute)
	assert.False(t, ok)
	got := out.String()
	for _, want := range []string{
		"  skip  a TestDB: db_test.go:3: IDEMLINT_PG_DSN not set\n",
		"--- FAIL a TestY/sub (1.0s)\nboom\n--- FAIL a TestY (1.0s)\nFAIL  a (1.5s)\n",
		"ok    b (0.2s, 1 tests)\n",
		"scripts/test: FAIL in 0s: 1 packages ok, 1 failed, 1 without tests; 1 tests passed, 1 failed, 1 skipped\n",
		"scripts/test: failed: a TestY/sub; a TestY\n",
	} {
		assert.Contains(t, got, want)
	}
}

func TestFollowPass(t *testing.T) {
	var out strings.Builder
	ok := follow(strings.NewReader(`{"Action":"start","Package":"b"}
{"Action":"pass","Package":"b","Test":"TestZ"}
{"Action":"pass","Package":"b","Elapsed":0.2}
{"Action":"exit","Output":"0"}
`), &out, "t", time.Minute)
	assert.True(t, ok, out.String())
	assert.Contains(t, out.String(), "t: PASS in 0s: 1 packages ok, 0 failed, 0 without tests; 1 tests passed, 0 failed, 0 skipped")
}

// A go test that fails before any event (a broken go.mod) fails the run.
func TestFollowExitStatus(t *testing.T) {
	var out strings.Builder
	ok := follow(strings.NewReader("go: errors parsing go.mod\n{\"Action\":\"exit\",\"Output\":\"1\"}\n"), &out, "t", time.Minute)
	assert.False(t, ok)
	assert.Contains(t, out.String(), "go: errors parsing go.mod\n")
	assert.Contains(t, out.String(), "t: failed: go test exited with status 1")
}

// Silence names what is still running.
func TestFollowSilence(t *testing.T) {
	r, w := io.Pipe()
	var out syncBuilder
	done := make(chan bool)
	go func() { done <- follow(r, &out, "t", 60*time.Millisecond) }()
	io.WriteString(w, `{"Action":"start","Package":"slow"}`+"\n")
	time.Sleep(300 * time.Millisecond)
	io.WriteString(w, `{"Action":"pass","Package":"slow","Elapsed":0.3}`+"\n")
	w.Close()
	<-done
	assert.Contains(t, out.String(), "  ... still running: slow (")
}

type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
