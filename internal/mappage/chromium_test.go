package mappage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envShots names a directory where TestPageInChromium also saves its pages and screenshots.
const envShots = "IDEMLINT_MAP_SHOTS"

var chromiumWarnOnce sync.Once

// chromium returns Chromium's binary. Without one it skips the test, loudly, or fails it when
// CI=true (CI must run this test).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "the map page's browser test needs chromium or chromium-browser on PATH: install Debian's 'chromium' package " +
		"(apt-get install chromium); ./scripts/test installs it when run as root"
	if os.Getenv("CI") == "true" {
		t.Fatalf("no chromium and CI=true: %s", msg)
	}
	chromiumWarnOnce.Do(func() {
		fmt.Fprintf(os.Stderr, "\n*** SKIPPING THE CHROMIUM TEST: %s ***\n\n", msg)
	})
	t.Skipf("SKIPPED: no chromium. %s", msg)
	return ""
}

// runChromium runs headless Chromium on the page with args, with no network and a profile of its
// own, and returns what it prints on stdout.
func runChromium(t *testing.T, bin, page string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	args = append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(),
		"--host-resolver-rules=MAP * ~NOTFOUND", // the page must need no network
	}, args...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, tail(stderr.String(), 40))
	}
	return stdout.String()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

func TestPageInChromium(t *testing.T) {
	bin := chromium(t)
	t.Run("sample", func(t *testing.T) { checkInChromium(t, bin, sampleMap(), "map") })
	// Maps idemlint map made of three public modules (an SDK, a service with HTTP handlers and
	// a database, a task-queue consumer), each dependency's paths cut to its four worst.
	for _, name := range []string{"gitlab-client-go", "miniflux", "machinery"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "public", name+".json"))
			require.NoError(t, err)
			var m Map
			require.NoError(t, json.Unmarshal(data, &m))
			require.NotEmpty(t, m.Dependencies)
			checkInChromium(t, bin, &m, name)
		})
	}
	t.Run("40 dependencies", func(t *testing.T) {
		if testing.Short() {
			t.Skip("another page in Chromium, for its size")
		}
		checkInChromium(t, bin, manyMap(40), "map-40")
	})
}

// checkInChromium writes m's page as name.html, reads back the DOM Chromium builds from it and
// takes a screenshot, name.png, saved in the test's artifact directory (go test -artifacts) and in
// $IDEMLINT_MAP_SHOTS when it is set.
func checkInChromium(t *testing.T, bin string, m *Map, name string) {
	dir := t.ArtifactDir()
	page := filepath.Join(dir, name+".html")
	var b bytes.Buffer
	require.NoError(t, Write(&b, m))
	require.NoError(t, os.WriteFile(page, b.Bytes(), 0o644))

	dom := runChromium(t, bin, page, "--dump-dom")
	require.Contains(t, dom, "</html>", "the dumped DOM")
	deps := elements(dom, "dep")
	texts := sectionTexts(dom)
	require.Len(t, deps, len(m.Dependencies))
	require.Len(t, texts, len(m.Dependencies))
	sorted := newPage(m).Deps
	npaths := 0
	for i, d := range sorted {
		assert.Equal(t, d.Name, deps[i].attrs["data-name"])
		assert.Equal(t, d.Kind, deps[i].attrs["data-kind"])
		assert.Equal(t, d.Worst.Calls, deps[i].attrs["data-worst"])
		assert.Contains(t, worstText(texts[i]), d.Worst.Calls, d.Name)
		assert.Len(t, elements(texts[i], "path"), min(len(m.Dependencies[slices.IndexFunc(m.Dependencies, func(x Dependency) bool { return x.Name == d.Name })].Paths), pagePaths), d.Name)
		npaths += len(d.Shown) + len(d.More)
	}
	assert.Len(t, elements(dom, "path"), npaths)
	if len(m.Dependencies) == len(sampleOrder) {
		assert.Equal(t, sampleOrder, names(deps, "data-name"))
	}

	shot := filepath.Join(dir, name+".png")
	runChromium(t, bin, page, "--screenshot="+shot, "--window-size=1280,2000")
	unbounded := slices.ContainsFunc(m.Dependencies, func(d Dependency) bool { return d.Worst.Calls == "unbounded" })
	checkScreenshot(t, shot, unbounded)
	if out := os.Getenv(envShots); out != "" {
		require.NoError(t, os.MkdirAll(out, 0o755))
		for _, f := range []string{page, shot} {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(out, filepath.Base(f)), data, 0o644))
		}
		t.Logf("saved %s.html and %s.png in %s", name, name, out)
	}
}

// checkScreenshot checks that the screenshot is a page of the expected size with text and
// drawing on it, and, when the map has one, the warm red of an unbounded worst case.
func checkScreenshot(t *testing.T, shot string, unbounded bool) {
	t.Helper()
	f, err := os.Open(shot)
	require.NoError(t, err, "the screenshot")
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err, "the screenshot")
	size := img.Bounds().Size()
	assert.GreaterOrEqual(t, size.X, 1000, "width")
	assert.GreaterOrEqual(t, size.Y, 1500, "height")
	colours := map[[3]uint32]int{}
	red := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 2 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 2 {
			c := rgb(img, x, y)
			colours[c]++
			if near(c, [3]uint32{0xb4, 0x23, 0x18}) {
				red++
			}
		}
	}
	assert.Greater(t, len(colours), 50, "distinct colours: a page with text and figures, not a blank one")
	top := 0
	for _, n := range colours {
		top = max(top, n)
	}
	assert.Less(t, top, size.X*size.Y/4*9/10, "one colour covers almost all of the page")
	if unbounded {
		assert.Greater(t, red, 100, "pixels of the unbounded red")
	}
}

func rgb(img image.Image, x, y int) [3]uint32 {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]uint32{r >> 8, g >> 8, b >> 8}
}

func near(a, b [3]uint32) bool {
	for i := range a {
		if d := int(a[i]) - int(b[i]); d > 12 || d < -12 {
			return false
		}
	}
	return true
}
