// Package ssapkg provides the SSA form of the package under analysis to idemlint's models,
// built once per package like x/tools' buildssa, but not for the standard library: the models
// skip it (see IsStd), and building SSA for every standard package that a program
// imports doubled the run time and memory of a whole-program run.
package ssapkg

import (
	"go/ast"
	"go/types"
	"reflect"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/ssa"
)

// Analyzer's result is a *buildssa.SSA; for a standard-library package it holds no functions.
var Analyzer = &analysis.Analyzer{
	Name:       "ssapkg",
	Doc:        "build SSA for idemlint's models, except for the standard library",
	URL:        "https://pkg.go.dev/github.com/idemlint/idemlint/analyzers/internal/ssapkg",
	Requires:   []*analysis.Analyzer{ctrlflow.Analyzer},
	ResultType: reflect.TypeFor[*buildssa.SSA](),
	Run:        run,
}

func run(pass *analysis.Pass) (any, error) {
	if IsStd(pass) {
		return &buildssa.SSA{}, nil
	}
	// As buildssa does: a program per package, its imports created from types only, and
	// the ctrlflow analysis's no-return functions to cut the CFG after log.Fatal and friends.
	prog := ssa.NewProgram(pass.Fset, 0)
	prog.SetNoReturn(pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs).NoReturn)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	var funcs []*ssa.Function
	var addAnons func(f *ssa.Function)
	addAnons = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			addAnons(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				if f := prog.FuncValue(obj); f != nil {
					addAnons(f)
				}
			}
		}
	}
	return &buildssa.SSA{Pkg: pkg, SrcFuncs: funcs}, nil
}

// AllFuncs returns the package's source functions, its package initialiser (which holds the
// initialisation of package variables) and the closures inside it.
func AllFuncs(s *buildssa.SSA) []*ssa.Function {
	funcs := append([]*ssa.Function(nil), s.SrcFuncs...)
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		funcs = append(funcs, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	if s.Pkg != nil {
		if init := s.Pkg.Func("init"); init != nil {
			add(init)
		}
	}
	return funcs
}

// Stores indexes, once per package, the values its functions store into struct fields and
// package variables (flow.Stores), which both the retry and the remote-call models follow.
var Stores = &analysis.Analyzer{
	Name:       "ssastores",
	Doc:        "index the values a package stores into fields and package variables, for idemlint's models",
	URL:        "https://pkg.go.dev/github.com/idemlint/idemlint/analyzers/internal/ssapkg",
	Requires:   []*analysis.Analyzer{Analyzer},
	ResultType: reflect.TypeFor[*flow.Stores](),
	Run: func(pass *analysis.Pass) (any, error) {
		return flow.IndexStores(AllFuncs(pass.ResultOf[Analyzer].(*buildssa.SSA))), nil
	},
}
