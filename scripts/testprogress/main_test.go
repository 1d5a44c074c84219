package main

import (
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	ok := follow(strings.NewReader(events), &out, "scripts/test", time.Minute, time.Now())
	assert.False(t, ok)
	got := out.String()
	for _, want := range []string{
		"  skip  a TestDB: db_test.go:3: IDEMLINT_PG_DSN not set\n",
		"--- FAIL a TestY/sub (1.0s)\nboom\n--- FAIL a TestY (1.0s)\nFAIL  a (1.5s)\n",
		"ok    b (0.2s, 1 tests)\n",
		"scripts/test: FAIL in 0s: 1 packages ok, 1 failed, 1 without tests\n",
		"scripts/test: failed: a TestY/sub; a TestY\n",
	} {
		assert.Contains(t, got, want)
	}
	assert.True(t, strings.HasSuffix(got, "\nscripts/test: 1 passed, 1 failed, 1 skipped\n"), "the plain closing line:\n%s", got)
}

func TestFollowPass(t *testing.T) {
	var out strings.Builder
	ok := follow(strings.NewReader(`{"Action":"start","Package":"b"}
{"Action":"pass","Package":"b","Test":"TestZ"}
{"Action":"pass","Package":"b","Elapsed":0.2}
{"Action":"exit","Output":"0"}
`), &out, "t", time.Minute, time.Now())
	assert.True(t, ok, out.String())
	assert.Contains(t, out.String(), "t: PASS in 0s: 1 packages ok, 0 failed, 0 without tests\nt: 1 passed, 0 failed, 0 skipped\n")
}

// A go test that fails before any event (a broken go.mod) fails the run.
func TestFollowExitStatus(t *testing.T) {
	var out strings.Builder
	ok := follow(strings.NewReader("go: errors parsing go.mod\n{\"Action\":\"exit\",\"Output\":\"1\"}\n"), &out, "t", time.Minute, time.Now())
	assert.False(t, ok)
	assert.Contains(t, out.String(), "go: errors parsing go.mod\n")
	assert.Contains(t, out.String(), "t: failed: go test exited with status 1")
	assert.Contains(t, out.String(), "t: 0 passed, 1 failed, 0 skipped\n", "a failing run never reports 0 failed")
}

// Silence names what is still running.
func TestFollowSilence(t *testing.T) {
	r, w := io.Pipe()
	var out syncBuilder
	done := make(chan bool)
	go func() { done <- follow(r, &out, "t", 60*time.Millisecond, time.Now()) }()
	io.WriteString(w, `{"Action":"start","Package":"slow"}`+"\n")
	time.Sleep(300 * time.Millisecond)
	io.WriteString(w, `{"Action":"pass","Package":"slow","Elapsed":0.3}`+"\n")
	w.Close()
	<-done
	assert.Contains(t, out.String(), "  ... still running: slow (")
}

// A test binary that times out: go test -json attributes go's message to the running test and
// gives that test no verdict. The test is named, with the message, and counts as failed.
func TestFollowTimeout(t *testing.T) {
	stream, err := os.ReadFile("testdata/timeout.json") // go test -json -timeout 2s, TestSlow sleeping 10s
	require.NoError(t, err)
	var out strings.Builder
	ok := follow(strings.NewReader(string(stream)+`{"Action":"exit","Output":"1"}`+"\n"), &out, "t", time.Minute, time.Now())
	assert.False(t, ok)
	got := out.String()
	for _, want := range []string{
		"--- FAIL to TestSlow (did not finish: test timed out after 2s)\n",
		"    to_test.go:4: building\npanic: test timed out after 2s\n\trunning tests:\n\t\tTestSlow (2s)\n",
		"FAIL  to (2.0s)\n",
		"t: failed: to TestSlow (did not finish)\n",
		"t: 1 passed, 1 failed, 0 skipped\n",
	} {
		assert.Contains(t, got, want)
	}
}

// A go test stopped from outside (the run's time budget): the packages still running fail,
// with the tests they were running.
func TestFollowStopped(t *testing.T) {
	var out strings.Builder
	ok := follow(strings.NewReader(`{"Action":"start","Package":"slow"}
{"Action":"run","Package":"slow","Test":"TestBuild"}
{"Action":"output","Package":"slow","Test":"TestBuild","Output":"    build_test.go:9: building golangci-lint\n"}
{"Action":"exit","Output":"124"}
`), &out, "t", time.Minute, time.Now())
	assert.False(t, ok)
	got := out.String()
	assert.Contains(t, got, "t: go test exited with status 124 (stopped: the run's time budget ran out)\n")
	assert.Contains(t, got, "--- FAIL slow TestBuild (did not finish: go test was stopped)\n    build_test.go:9: building golangci-lint\n")
	assert.Contains(t, got, "FAIL  slow (did not finish: still running after ")
	assert.Contains(t, got, "t: 0 passed, 2 failed, 0 skipped\n")
}

// Another command's failure (the golangci-lint build) fails the run, whatever go test did.
func TestFollowStepFailed(t *testing.T) {
	var out strings.Builder
	ok := follow(strings.NewReader(`{"Action":"exit","Output":"1","Reason":"scripts/golangci-build"}
{"Action":"start","Package":"b"}
{"Action":"pass","Package":"b","Test":"TestZ"}
{"Action":"pass","Package":"b","Elapsed":0.2}
{"Action":"exit","Output":"0"}
`), &out, "t", time.Minute, time.Now())
	assert.False(t, ok)
	assert.Contains(t, out.String(), "t: failed: scripts/golangci-build exited with status 1\n")
	assert.Contains(t, out.String(), "t: 1 passed, 1 failed, 0 skipped\n")
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
