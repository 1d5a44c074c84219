// Command benchlint measures what idemlint costs next to go vet on one module; scripts/bench-lint
// builds idemlint and runs it. For each run it measures, in turn:
//
//	vet         go vet ./...
//	vetsuite    go vet -vettool=vetsuite ./...: go vet's analyzers on this module's x/tools
//	vettool     go vet -vettool=idemlint ./...
//	standalone  idemlint ./...
//	rerun       idemlint ./... again, on unchanged code
//
// The first four bypass vet's result cache (each run gives the tools a flag value they have
// not seen, which is part of the go command's cache key); the build cache is warmed by one
// unmeasured round first. Runs alternate between the commands and medians are printed.
//
// vetsuite (scripts/vetsuite) separates idemlint's own cost from its x/tools version's: the
// unitchecker of the x/tools that golangci-lint pins writes every package's types into its facts
// file, which the toolchain's go vet does not.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/idemlint/idemlint/internal/procmem"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("bench-lint: ")
	idemlint := flag.String("idemlint", "idemlint", "the idemlint binary to measure")
	vetsuite := flag.String("vetsuite", "vetsuite", "go vet's analyzers built on idemlint's x/tools (scripts/vetsuite)")
	runs := flag.Int("runs", 3, "measured runs of each command")
	header := flag.Bool("header", true, "print the table's header")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: benchlint [-idemlint BIN] [-vetsuite BIN] [-runs N] DIR [packages]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 {
		flag.Usage()
		os.Exit(2)
	}
	dir := flag.Arg(0)
	pkgs := flag.Args()[1:]
	if len(pkgs) == 0 {
		pkgs = []string{"./..."}
	}
	bin, err := filepath.Abs(*idemlint)
	if err != nil {
		log.Fatal(err)
	}
	suite, err := filepath.Abs(*vetsuite)
	if err != nil {
		log.Fatal(err)
	}
	salt := time.Now().UnixNano()
	cmds := []struct {
		name string
		args func(salt string) []string
	}{
		{"vet", func(s string) []string {
			return append([]string{"go", "vet", "-printf.funcs=idemlintbench" + s}, pkgs...)
		}},
		{"vetsuite", func(s string) []string {
			return append([]string{"go", "vet", "-vettool=" + suite, "-printf.funcs=idemlintbench" + s}, pkgs...)
		}},
		{"vettool", func(s string) []string {
			return append([]string{"go", "vet", "-vettool=" + bin, "-keys.names=idemlint-bench-" + s}, pkgs...)
		}},
		{"standalone", func(s string) []string { return append([]string{bin, "-keys.names=idemlint-bench-" + s}, pkgs...) }},
		{"rerun", nil}, // standalone again with the same salt
	}
	results := make(map[string][]procmem.Usage)
	for round := 0; round <= *runs; round++ {
		var last []string
		for _, c := range cmds {
			var args []string
			if c.args == nil {
				args = last
			} else {
				salt++
				args = c.args(fmt.Sprint(salt))
				last = args
			}
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = dir
			u, err := procmem.Run(cmd)
			if err != nil {
				log.Fatalf("%s: %v", strings.Join(args, " "), err)
			}
			if round == 0 {
				continue // warm the build cache
			}
			fmt.Fprintf(os.Stderr, "bench-lint: %s run %d: %.1fs, CPU %.1fs, largest process %s, all processes %s, exit %d\n",
				c.name, round, u.Wall.Seconds(), u.CPU.Seconds(), mb(u.MaxRSS), mb(u.TreeRSS), u.Code)
			results[c.name] = append(results[c.name], u)
		}
	}
	med := func(name string, f func(procmem.Usage) int64) int64 {
		var v []int64
		for _, u := range results[name] {
			v = append(v, f(u))
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	wall := func(u procmem.Usage) int64 { return int64(u.Wall) }
	cpu := func(u procmem.Usage) int64 { return int64(u.CPU) }
	maxrss := func(u procmem.Usage) int64 { return u.MaxRSS }
	tree := func(u procmem.Usage) int64 { return u.TreeRSS }
	ratio := func(a, b int64) string { return fmt.Sprintf("%.2fx", float64(a)/float64(b)) }
	secs := func(d int64) string { return fmt.Sprintf("%.1f s", time.Duration(d).Seconds()) }

	if *header {
		fmt.Println("| module | go vet | vettool / vet: wall | CPU | largest process | vettool / vetsuite: wall | CPU | largest process | standalone wall (of vettool) | standalone, all processes (of the largest vettool process) | re-run |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	}
	against := func(a, b string) string {
		return fmt.Sprintf("%s | %s | %s", ratio(med(a, wall), med(b, wall)), ratio(med(a, cpu), med(b, cpu)), ratio(med(a, maxrss), med(b, maxrss)))
	}
	fmt.Printf("| %s | %s | %s | %s | %s (%s) | %s (%s) | %s |\n",
		module(dir),
		secs(med("vet", wall)),
		against("vettool", "vet"),
		against("vettool", "vetsuite"),
		secs(med("standalone", wall)), ratio(med("standalone", wall), med("vettool", wall)),
		mb(med("standalone", tree)), ratio(med("standalone", tree), med("vettool", maxrss)),
		secs(med("rerun", wall)))
}

func mb(b int64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%.0f GB", float64(b)/(1<<30))
	}
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%d MB", b>>20)
}

// module names dir by its go.mod's module path.
func module(dir string) string {
	out, err := exec.Command("go", "-C", dir, "list", "-m").Output()
	if err != nil {
		return dir
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}
