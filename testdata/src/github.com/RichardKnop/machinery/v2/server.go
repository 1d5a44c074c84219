// Package machinery is a stub of github.com/RichardKnop/machinery/v2 (v2.0.16, public
// signatures only).
package machinery

type Server struct{}

func (server *Server) RegisterTasks(namedTaskFuncs map[string]interface{}) error { return nil }
func (server *Server) RegisterTask(name string, taskFunc interface{}) error      { return nil }
