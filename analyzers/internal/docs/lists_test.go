package docs_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/analyzers"
)

// partial marks a block of the docs that names some checks on purpose (an example of choosing
// checks): the line before the block is "<!-- partial list: why -->".
const partial = "<!-- partial list:"

// TestDocsListEveryCheck finds every list of checks in README.md and docs/ and fails when one
// leaves a check out. A list is a table or bullet list with two or more lines that start with
// a check's name, two or more package paths of checks (analyzers/NAME) in one block, or two
// or more names one after the other with only punctuation, "and" or "or" between them
// ("keyinloop, notimeout", "[keyinloop, notimeout]", "keyinloop/ notimeout/"). A block whose
// line before is "<!-- partial list: why -->" may name some. Counting words ("the three
// checks") must give the number of checks.
func TestDocsListEveryCheck(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	var checks []string
	for _, a := range analyzers.Checks() {
		checks = append(checks, a.Name)
	}
	files := append([]string{filepath.Join(root, "README.md")}, mdFiles(t, filepath.Join(root, "docs"))...)
	lists := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, b := range blocks(string(data)) {
			named := listed(b.text, checks)
			if len(named) < 2 {
				continue
			}
			lists++
			if b.partial {
				continue
			}
			var missing []string
			for _, c := range checks {
				if !slices.Contains(named, c) {
					missing = append(missing, c)
				}
			}
			if len(missing) > 0 {
				t.Errorf("%s:%d: a list of checks without %s (mark an example that names some on purpose with a line %q before it):\n%s",
					rel, b.line, strings.Join(missing, ", "), partial+" why -->", b.text)
			}
		}
		words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
		for _, m := range regexp.MustCompile(`(?i)\b(two|three|four|five|six|seven|eight|nine|ten) checks\b`).FindAllStringSubmatch(string(data), -1) {
			if !strings.EqualFold(m[1], words[len(checks)]) {
				t.Errorf("%s: %q, but idemlint has %d checks", rel, m[0], len(checks))
			}
		}
	}
	if lists == 0 {
		t.Error("found no list of checks in the docs: the test is looking in the wrong place")
	}
}

// Every flag of every analyzer (-NAME.FLAG) is documented in README.md or docs/.
func TestDocsNameEveryFlag(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	var all strings.Builder
	for _, f := range append([]string{filepath.Join(root, "README.md")}, mdFiles(t, filepath.Join(root, "docs"))...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
	}
	for _, a := range analyzers.All() {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if name := "-" + a.Name + "." + f.Name; !strings.Contains(all.String(), name) {
				t.Errorf("%s is not documented in README.md or docs/", name)
			}
		})
	}
}

func mdFiles(t *testing.T, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type block struct {
	text    string
	line    int
	partial bool
}

// blocks splits Markdown into fenced code blocks and the paragraphs, tables and lists between
// blank lines.
func blocks(md string) []block {
	var out []block
	var cur []string
	start, fenced := 0, false
	prev := ""
	flush := func() {
		if len(cur) > 0 {
			out = append(out, block{text: strings.Join(cur, "\n"), line: start + 1, partial: strings.HasPrefix(strings.TrimSpace(prev), partial)})
			prev = cur[len(cur)-1]
			cur = nil
		}
	}
	for i, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(l), "```"):
			if fenced {
				cur = append(cur, l)
				flush()
				fenced = false
				continue
			}
			flush()
			fenced, start = true, i
			cur = append(cur, l)
		case fenced:
			cur = append(cur, l)
		case strings.TrimSpace(l) == "":
			flush()
		case strings.HasPrefix(strings.TrimSpace(l), partial):
			flush()
			prev = l
		default:
			if len(cur) == 0 {
				start = i
			}
			cur = append(cur, l)
		}
	}
	flush()
	return out
}

// listed returns the checks that text names as a list (see TestDocsListEveryCheck), or nil.
func listed(text string, checks []string) []string {
	names := regexp.MustCompile(`\b(` + strings.Join(checks, "|") + `)\b`)
	var items, paths, adjacent []string
	for _, l := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(l, " \t|-*+`[\"'")
		if m := names.FindStringIndex(trimmed); m != nil && m[0] == 0 && !strings.HasPrefix(trimmed[m[1]:], ".") {
			items = append(items, trimmed[m[0]:m[1]]) // a check, not one of its flags (-notimeout.default)
		}
	}
	for _, m := range regexp.MustCompile(`analyzers/(`+strings.Join(checks, "|")+`)\b`).FindAllStringSubmatch(text, -1) {
		paths = append(paths, m[1])
	}
	between := regexp.MustCompile("^[\\s,;/\\[\\]()`*|:\"'.-]*((and|or)[\\s`*\"']*)?$")
	locs := names.FindAllStringIndex(text, -1)
	for i := 1; i < len(locs); i++ {
		if between.MatchString(text[locs[i-1][1]:locs[i][0]]) {
			adjacent = append(adjacent, text[locs[i-1][0]:locs[i-1][1]], text[locs[i][0]:locs[i][1]])
		}
	}
	var out []string
	for _, group := range [][]string{items, paths, adjacent} {
		slices.Sort(group)
		group = slices.Compact(group)
		if len(group) >= 2 {
			out = append(out, group...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestListed(t *testing.T) {
	checks := []string{"keyinloop", "notimeout", "nojitter"}
	for text, want := range map[string]string{
		"| `keyinloop` | a |\n| `notimeout` | b |":                       "keyinloop notimeout",
		"enable: [keyinloop, notimeout]":                                 "keyinloop notimeout",
		"keyinloop/ notimeout/  the checks":                              "keyinloop notimeout",
		"keyinloop, notimeout and nojitter":                              "keyinloop nojitter notimeout",
		"\"//analyzers/keyinloop\",\n\"//analyzers/nojitter\"":           "keyinloop nojitter",
		"a key made in the loop is keyinloop's finding, not notimeout's": "",
		"- [keyinloop](x.md): a\n- [nojitter](y.md): b":                  "keyinloop nojitter",
		"| `-notimeout.default=30s` | a |\n| `-keyinloop.x` | b |":       "",
	} {
		if got := strings.Join(listed(text, checks), " "); got != want {
			t.Errorf("listed(%q) = %q, want %q", text, got, want)
		}
	}
	b := blocks("a\n\n" + partial + " an example -->\nenable: [keyinloop, notimeout]\n\n```yaml\nx\n\ny\n```\n")
	if len(b) != 3 || !b[1].partial || b[0].partial || b[2].text != "```yaml\nx\n\ny\n```" {
		t.Errorf("blocks: %+v", b)
	}
}

// Every relative link in README.md and docs/ leads to a file that exists (pages moved out of
// the README keep their links working).
func TestDocsLinks(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	for _, f := range append([]string{filepath.Join(root, "README.md")}, mdFiles(t, filepath.Join(root, "docs"))...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: link to %s: %v", rel, target, err)
			}
		}
	}
}
