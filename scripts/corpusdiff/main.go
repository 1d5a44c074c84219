// Command corpusdiff runs idemlint, built at two revisions of this repository, on a fixed list
// of module snapshots and prints the findings that appeared and disappeared (nilaway's golden
// test tool is the model). Use it on every change to the models: a rule changed for one module
// must not move findings on the others unseen.
//
//	go run ./scripts/corpusdiff [-list FILE] [-cache DIR] [-report] [-only SUBSTR] OLD [NEW]
//
// OLD and NEW are git revisions; NEW defaults to the working tree ("WORK"), uncommitted changes
// included. FILE lists the modules, one per line, as module@version followed by package
// patterns (default ./...); # starts a comment. Each module is taken from the Go module proxy
// (go mod download), copied once into the cache, and analysed with GOWORK=off and
// GOFLAGS=-mod=mod. -report adds the models' reports (-retryscope.report -remote.report), so
// that a change in what the models see shows even when no check reports it.
//
// Results are kept in the cache by the binary's content and the module, so a second diff
// against the same old revision only runs the new binary. The output lists, per module, the
// findings only in OLD (-) and only in NEW (+), each with its related lines, then a count per
// check. The exit code is 0 when nothing changed, 1 when something did, 2 on usage errors.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("corpusdiff: ")
	root := repoRoot()
	list := flag.String("list", filepath.Join(root, "scripts", "corpus", "regression.txt"), "the modules to run on")
	cache := flag.String("cache", defaultCache(), "where module copies, binaries and results are kept")
	report := flag.Bool("report", false, "include the models' reports (-retryscope.report -remote.report)")
	only := flag.String("only", "", "run only the modules whose line contains this")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: corpusdiff [-list FILE] [-cache DIR] [-report] [-only SUBSTR] OLD [NEW]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 {
		flag.Usage()
		os.Exit(2)
	}
	oldRev, newRev := flag.Arg(0), "WORK"
	if flag.NArg() == 2 {
		newRev = flag.Arg(1)
	}
	mods, err := readList(*list, *only)
	if err != nil {
		log.Fatal(err)
	}
	var flags []string
	if *report {
		flags = []string{"-retryscope.report", "-remote.report"}
	}
	oldBin := build(root, *cache, oldRev)
	newBin := build(root, *cache, newRev)

	changed := false
	counts := make(map[string][2]int) // check -> findings gone, new
	for _, m := range mods {
		dir, err := fetch(*cache, m.version)
		if err != nil {
			fmt.Printf("## %s: skipped: %v\n\n", m.version, err)
			continue
		}
		before := analyse(*cache, oldBin, dir, m, flags)
		after := analyse(*cache, newBin, dir, m, flags)
		gone, added := diff(before, after)
		if len(gone)+len(added) == 0 {
			fmt.Fprintf(os.Stderr, "corpusdiff: %s: %d findings, unchanged\n", m.version, len(after))
			continue
		}
		changed = true
		fmt.Printf("## %s (%d -> %d findings)\n\n", m.version, len(before), len(after))
		for _, f := range gone {
			fmt.Printf("- %s\n", strings.ReplaceAll(f, "\n", "\n  "))
			c := counts[check(f)]
			c[0]++
			counts[check(f)] = c
		}
		for _, f := range added {
			fmt.Printf("+ %s\n", strings.ReplaceAll(f, "\n", "\n  "))
			c := counts[check(f)]
			c[1]++
			counts[check(f)] = c
		}
		fmt.Println()
	}
	if !changed {
		fmt.Printf("no change on %d modules between %s and %s\n", len(mods), oldRev, newRev)
		return
	}
	var names []string
	for n := range counts {
		names = append(names, n)
	}
	slices.Sort(names)
	fmt.Println("| check | gone | new |\n|---|---:|---:|")
	for _, n := range names {
		fmt.Printf("| %s | %d | %d |\n", n, counts[n][0], counts[n][1])
	}
	os.Exit(1)
}

type module struct {
	version  string // module@version
	patterns []string
}

func readList(path, only string) ([]module, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []module
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 || only != "" && !strings.Contains(line, only) {
			continue
		}
		if !strings.Contains(fields[0], "@") {
			return nil, fmt.Errorf("%s: %q is not module@version", path, fields[0])
		}
		m := module{version: fields[0], patterns: fields[1:]}
		if len(m.patterns) == 0 {
			m.patterns = []string{"./..."}
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

func repoRoot() string {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		log.Fatal("run corpusdiff inside the idemlint repository: ", err)
	}
	return strings.TrimSpace(string(out))
}

func defaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "idemlint", "corpus")
}

// build returns the path of idemlint built at rev ("WORK": the working tree), named by the
// binary's content.
func build(root, cache, rev string) string {
	src := root
	if rev != "WORK" {
		sha, err := exec.Command("git", "-C", root, "rev-parse", "--verify", rev+"^{commit}").Output()
		if err != nil {
			log.Fatalf("%s is not a revision: %v", rev, err)
		}
		src = filepath.Join(cache, "rev", strings.TrimSpace(string(sha)))
		if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
			must(os.MkdirAll(src, 0o755))
			archive := exec.Command("sh", "-c", "git -C \"$0\" archive \"$1\" | tar -x -C \"$2\"", root, strings.TrimSpace(string(sha)), src)
			archive.Stderr = os.Stderr
			must(archive.Run())
		}
	}
	tmp := filepath.Join(cache, "bin", "build-"+fmt.Sprint(os.Getpid()))
	must(os.MkdirAll(filepath.Dir(tmp), 0o755))
	cmd := exec.Command("go", "build", "-o", tmp, "./cmd/idemlint")
	cmd.Dir, cmd.Stderr = src, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatalf("building idemlint at %s: %v", rev, err)
	}
	content, err := os.ReadFile(tmp)
	must(err)
	sum := sha256.Sum256(content)
	bin := filepath.Join(cache, "bin", hex.EncodeToString(sum[:8]))
	must(os.Rename(tmp, bin))
	fmt.Fprintf(os.Stderr, "corpusdiff: %s is %s\n", rev, filepath.Base(bin))
	return bin
}

// fetch returns a writable copy of module@version, made once from the module cache.
func fetch(cache, version string) (string, error) {
	dir := filepath.Join(cache, "src", strings.ReplaceAll(version, "/", "_"))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return dir, nil
	}
	out, err := exec.Command("go", "mod", "download", "-json", version).Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Dir == "" {
		if info.Error != "" {
			return "", fmt.Errorf("%s", info.Error)
		}
		return "", fmt.Errorf("go mod download: %v", err)
	}
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if err := os.CopyFS(tmp, os.DirFS(info.Dir)); err != nil {
		return "", err
	}
	if err := filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	}); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(tmp, "go.mod")); err != nil {
		// A module from before modules: give it one.
		name, _, _ := strings.Cut(version, "@")
		must(os.WriteFile(filepath.Join(tmp, "go.mod"), []byte("module "+name+"\n\ngo 1.16\n"), 0o644))
	}
	return dir, os.Rename(tmp, dir)
}

// analyse returns the findings of bin on the module in dir: each a diagnostic line with its
// related lines, paths relative to dir, sorted. Results are cached.
func analyse(cache, bin string, dir string, m module, flags []string) []string {
	key := sha256.Sum256([]byte(strings.Join(append([]string{filepath.Base(bin), m.version}, append(flags, m.patterns...)...), "\x00")))
	out := filepath.Join(cache, "out", hex.EncodeToString(key[:12]))
	if b, err := os.ReadFile(out); err == nil {
		return split(string(b))
	}
	args := append(append([]string{"-p=1"}, flags...), m.patterns...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	err := cmd.Run()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "corpusdiff: %s with %s: exit %d in %s\n", m.version, filepath.Base(bin), code, time.Since(start).Round(time.Second))
	text := normalise(stderr.String(), dir)
	if code == 1 {
		text += "! exit 1: a package did not load or the tool failed\n"
	}
	must(os.MkdirAll(filepath.Dir(out), 0o755))
	must(os.WriteFile(out, []byte(text), 0o644))
	return split(text)
}

var (
	finding = regexp.MustCompile(`^\S+\.go:\d+:\d+: `)
	related = regexp.MustCompile(`^\S+\.go:\d+:\d+: \t`) // printed under its finding
)

// normalise keeps the findings, each followed by its related lines (indented by a tab), with
// dir's prefix removed; a package that failed becomes a line starting with "!"; the driver's
// progress and summary lines go.
func normalise(out, dir string) string {
	var b strings.Builder
	keep := false
	for _, line := range strings.Split(out, "\n") {
		line = strings.ReplaceAll(line, dir+string(filepath.Separator), "")
		switch {
		case related.MatchString(line):
			if keep {
				b.WriteString("\t" + line + "\n")
			}
		case finding.MatchString(line):
			keep = true
			b.WriteString(line + "\n")
		default:
			keep = false
			if strings.HasPrefix(line, "# ") || strings.Contains(line, "internal error: ") {
				b.WriteString("! " + line + "\n")
			}
		}
	}
	return b.String()
}

// split returns the findings of a normalised output, each with its related lines, sorted.
func split(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "\t") && len(out) > 0:
			out[len(out)-1] += "\n" + line
		default:
			out = append(out, line)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// diff returns the findings only in a, and those only in b.
func diff(a, b []string) (gone, added []string) {
	in := func(list []string, s string) bool { _, ok := slices.BinarySearch(list, s); return ok }
	for _, f := range a {
		if !in(b, f) {
			gone = append(gone, f)
		}
	}
	for _, f := range b {
		if !in(a, f) {
			added = append(added, f)
		}
	}
	return gone, added
}

var checkName = regexp.MustCompile(`^\S+\.go:\d+:\d+: (\w+):`)

func check(f string) string {
	if m := checkName.FindStringSubmatch(f); m != nil {
		return m[1]
	}
	return "(failures)"
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
