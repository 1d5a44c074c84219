package ingestresources

import "context"

// FakeMgmt answers from fixed rows; the package's tests hand it to New.
type FakeMgmt struct {
	Rows [][]string
	Err  error
}

func (f *FakeMgmt) Mgmt(_ context.Context, db, statement string) (Dataset, error) {
	if f.Err != nil {
		return Dataset{}, f.Err
	}
	return Dataset{Rows: f.Rows}, nil
}
