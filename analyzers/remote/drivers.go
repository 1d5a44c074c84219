package remote

import (
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// embeddedDrivers are database/sql drivers of databases that run inside the process.
var embeddedDrivers = []string{
	"github.com/mattn/go-sqlite3", "modernc.org/sqlite", "github.com/glebarez/go-sqlite",
	"github.com/glebarez/sqlite", "github.com/ncruces/go-sqlite3", "github.com/mutecomm/go-sqlcipher",
	"github.com/xeodou/go-sqlcipher", "modernc.org/ql", "github.com/cznic/ql",
	"github.com/marcboeker/go-duckdb", "github.com/duckdb/duckdb-go",
}

// serverDrivers are database/sql drivers of database servers: a package that imports one
// beside an embedded driver talks to both.
var serverDrivers = []string{
	"github.com/go-sql-driver/mysql", "github.com/lib/pq", "github.com/jackc/pgx",
	"github.com/denisenkom/go-mssqldb", "github.com/microsoft/go-mssqldb", "github.com/sijms/go-ora",
	"github.com/godror/godror", "github.com/ClickHouse/clickhouse-go", "github.com/snowflakedb/gosnowflake",
	"github.com/googleapis/go-sql-spanner", "github.com/trinodb/trino-go-client", "github.com/nakagami/firebirdsql",
	"github.com/ibmdb/go_ibm_db", "github.com/vertica/vertica-sql-go", "github.com/databricks/databricks-sql-go",
}

func importsAny(paths []string, list []string) bool {
	for _, p := range paths {
		for _, d := range list {
			if p == d || strings.HasPrefix(p, d+"/") {
				return true
			}
		}
	}
	return false
}

// embeddedSQL reports whether the database calls at pos stay in the process: the file imports
// the driver of an embedded database (SQLite, ql, DuckDB) and none of a server's, or the
// package does and no file of it imports a server's driver. A package with backends of both
// kinds (SQLite beside MySQL and PostgreSQL) is judged file by file; its other files' calls
// may go to a server.
func (st *state) embeddedSQL(pos token.Pos) bool {
	if st.embedded == 0 {
		st.embedded = 2
		var all []string
		for _, imp := range st.pass.Pkg.Imports() {
			all = append(all, imp.Path())
		}
		if importsAny(all, embeddedDrivers) {
			st.embedded = 1
			if importsAny(all, serverDrivers) {
				st.embedded = 3 // both: by file
			}
		}
	}
	switch st.embedded {
	case 1:
		return true
	case 3:
		for _, f := range st.pass.Files {
			if f.FileStart <= pos && pos <= f.FileEnd {
				var paths []string
				for _, is := range f.Imports {
					if p, err := strconv.Unquote(is.Path.Value); err == nil {
						paths = append(paths, p)
					}
				}
				return importsAny(paths, embeddedDrivers) && !importsAny(paths, serverDrivers)
			}
		}
	}
	return false
}

// redigoDial evaluates a redigo dial by its options: a connection whose reads have a timeout
// (DialReadTimeout) is bounded; options made elsewhere may give one.
func (w *walker) redigoDial(opts []ssa.Value) verdict {
	names, complete := optionCalls(opts, knowledge.RedigoPaths...)
	switch {
	case names["DialReadTimeout"]:
		return bounded("redis.DialReadTimeout")
	case !complete:
		return unknown
	}
	return noContext()
}

// grpcDial evaluates a gRPC dial: it leaves the process only when an option makes it block.
func (w *walker) grpcDial(opts []ssa.Value, ctx verdict) (verdict, bool) {
	names, complete := optionCalls(opts, knowledge.GRPCPath)
	block, timeout := names["WithBlock"] || names["WithReturnConnectionError"], names["WithTimeout"]
	switch {
	case timeout:
		return bounded("grpc.WithTimeout"), block
	case !block:
		return unknown, false // does not block: not a call that waits for the server
	case !complete:
		return unknown, true
	}
	return ctx, true
}

// optionCalls returns the names of the functions of pkgs that make the options opts (through
// appends, variables and phis), and whether every option was traced to one: an option from a
// parameter, a global, a field or another function may be anything.
func optionCalls(opts []ssa.Value, pkgs ...string) (names map[string]bool, complete bool) {
	names, complete = make(map[string]bool), true
	for _, o := range opts {
		flow.Backward(o, 128, func(x ssa.Value) bool {
			switch x := x.(type) {
			case *ssa.Call:
				if _, builtin := x.Common().Value.(*ssa.Builtin); builtin {
					return true // append
				}
				id := flow.ID(flow.Callee(x.Common()))
				if slices.Contains(pkgs, id.Pkg) && id.Recv == "" {
					names[id.Name] = true
					return false
				}
				complete = false
			case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
				complete = false
			case *ssa.UnOp:
				if _, ok := x.X.(*ssa.FieldAddr); ok {
					complete = false
				}
			}
			return true
		})
	}
	return names, complete
}
