// Package ssapkg provides the SSA form of the package under analysis to idemlint's models,
// built once per package like x/tools' buildssa, but not for the standard library: the models
// skip it (see IsStd), and building SSA for every standard package that a program
// imports doubled the run time and memory of a whole-program run.
package ssapkg

import (
	"fmt"
	"go/ast"
	"go/token"
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
	pkg, err := buildSSA(pass, true)
	if err != nil {
		pkg, _ = buildSSA(pass, false) // as buildssa does it; its panics are not ours to hide
	}
	prog := pkg.Prog

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
	// Closures in the initialisers of package variables (a command's Action or RunE, a
	// handler table) are source functions too; buildssa leaves them out.
	if init := pkg.Func("init"); init != nil {
		for _, anon := range init.AnonFuncs {
			addAnons(anon)
		}
	}
	return &buildssa.SSA{Pkg: pkg, SrcFuncs: funcs}, nil
}

// buildSSA builds the package's SSA as buildssa does: a program per package, its imports
// created from types only, and the ctrlflow analysis's no-return functions to cut the CFG
// after log.Fatal and friends. With used, each import gets only the package-level functions
// and variables that the package names (see createUsed); a panic of the builder is then
// returned as an error, for the caller to build again with every member.
func buildSSA(pass *analysis.Pass, used bool) (pkg *ssa.Package, err error) {
	prog := ssa.NewProgram(pass.Fset, 0)
	prog.SetNoReturn(pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs).NoReturn)
	if used {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("ssa with used imports only: %v", r)
			}
		}()
		createUsed(prog, pass)
	} else {
		for _, p := range pass.Pkg.Imports() {
			prog.CreatePackage(p, nil, nil, true)
		}
	}
	pkg = prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	return pkg, nil
}

// createUsed creates the package's imports with only the package-level functions and
// variables that its files name: the builder needs those (and every direct import, whose
// initialiser the package's calls), methods it creates on demand. Creating an import from
// its types creates every member and method of it, for each package that imports it: a
// module whose root package declares thousands of types spent most of its analysis there.
// The members are declared to the builder by declarations without bodies, so each such
// function reads as flow.FromTypes, as an import's functions always did; flow.Syntax is nil
// for them.
func createUsed(prog *ssa.Program, pass *analysis.Pass) {
	used := make(map[*types.Package][]types.Object)
	seen := make(map[types.Object]bool)
	for _, obj := range pass.TypesInfo.Uses {
		switch o := obj.(type) {
		case *types.Func:
			if o.Signature().Recv() != nil {
				continue
			}
			obj = o.Origin()
		case *types.Var:
			obj = o.Origin()
		default:
			continue
		}
		p := obj.Pkg()
		if p == nil || p == pass.Pkg || seen[obj] || p.Scope().Lookup(obj.Name()) != obj {
			continue
		}
		seen[obj] = true
		used[p] = append(used[p], obj)
	}
	for _, p := range pass.Pkg.Imports() {
		info := &types.Info{Defs: make(map[*ast.Ident]types.Object)}
		file := &ast.File{Name: ast.NewIdent(p.Name())}
		for _, obj := range used[p] {
			id := ast.NewIdent(obj.Name())
			info.Defs[id] = obj
			switch obj.(type) {
			case *types.Func:
				file.Decls = append(file.Decls, &ast.FuncDecl{Name: id, Type: &ast.FuncType{}})
			case *types.Var:
				file.Decls = append(file.Decls, &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{id}}}})
			}
		}
		sp := prog.CreatePackage(p, []*ast.File{file}, info, true)
		for _, m := range sp.Members {
			if fn, ok := m.(*ssa.Function); ok && fn.Synthetic == "" {
				fn.Synthetic = flow.FromTypes
			}
		}
	}
}

// AllFuncs returns the package's source functions (with the closures of its package
// variables' initialisers) and its package initialiser itself.
func AllFuncs(s *buildssa.SSA) []*ssa.Function {
	funcs := append([]*ssa.Function(nil), s.SrcFuncs...)
	if s.Pkg != nil {
		if init := s.Pkg.Func("init"); init != nil {
			funcs = append(funcs, init)
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
