module example.com/retrylib

go 1.24
