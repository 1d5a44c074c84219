module example.com/service

go 1.24
