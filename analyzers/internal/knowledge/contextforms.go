package knowledge

// ContextForm names the form of a context-free database or client method that takes a context:
// "QueryContext" for Query, database/sql's BeginTx for Begin (sqlx's BeginTxx for Beginx).
func ContextForm(method string) string {
	switch method {
	case "Begin", "MustBegin":
		return method + "Tx"
	case "Beginx":
		return "BeginTxx"
	}
	return method + "Context"
}
