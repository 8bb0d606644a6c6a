module github.com/example/payments

go 1.20

toolchain go1.21.5

require (
	github.com/gin-gonic/gin v1.9.0
	github.com/golang-jwt/jwt/v4 v4.4.2
	golang.org/x/crypto v0.7.0 // indirect
	golang.org/x/net v0.8.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
	github.com/example/shared v0.0.0-20230301120000-abcdef123456
)

require github.com/sirupsen/logrus v1.9.0

// Use the fork until the upstream fix lands.
replace golang.org/x/net v0.8.0 => golang.org/x/net v0.17.0

replace github.com/example/shared => ../shared

exclude github.com/gin-gonic/gin v1.8.0

retract v1.0.0 // published by mistake
