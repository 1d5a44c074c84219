package remote

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// A request handed to a goroutine: a client that queues each request, with a channel for its
// answer, on a channel of its own (c.sendChan <- &request{..., recvChan: make(chan response,
// 1)}) and lets a loop of the package write it to the connection (case req := <-c.sendChan:
// c.conn.Write(...)) leaves the process as surely as one that writes it itself: ZooKeeper's
// client, and other wire-protocol clients that multiplex one connection.

// handoffs returns, by the struct field that holds a channel, the functions of the package
// that receive from the channel loaded from that field.
func (r *reacher) handoffs() map[*types.Var][]*ssa.Function {
	if r.receivers != nil {
		return r.receivers
	}
	r.receivers = make(map[*types.Var][]*ssa.Function)
	for _, fn := range r.pkgFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var chans []ssa.Value
				switch x := instr.(type) {
				case *ssa.UnOp:
					if x.Op == token.ARROW {
						chans = append(chans, x.X)
					}
				case *ssa.Select:
					for _, st := range x.States {
						if st.Dir == types.RecvOnly {
							chans = append(chans, st.Chan)
						}
					}
				}
				for _, ch := range chans {
					if f := chanField(ch); f != nil {
						r.receivers[f] = append(r.receivers[f], fn)
					}
				}
			}
		}
	}
	return r.receivers
}

// handsOffRemote reports whether fn queues a request that carries a channel for its answer on
// a channel held in a struct field, from which a function of the package that may leave the
// process receives.
func (r *reacher) handsOffRemote(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var sends [][2]ssa.Value // channel, value
			switch x := instr.(type) {
			case *ssa.Send:
				sends = append(sends, [2]ssa.Value{x.Chan, x.X})
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.SendOnly {
						sends = append(sends, [2]ssa.Value{st.Chan, st.Send})
					}
				}
			}
			for _, s := range sends {
				f := chanField(s[0])
				if f == nil || !typeis.HoldsChan(s[1].Type()) {
					continue
				}
				for _, recv := range r.handoffs()[f] {
					if recv != fn && r.of[recv] == ReachRemote {
						return true
					}
				}
			}
		}
	}
	return false
}

// chanField returns the struct field a channel value is loaded from (c.sendChan), or nil.
func chanField(ch ssa.Value) *types.Var {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer) // not a type parameter's
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}
