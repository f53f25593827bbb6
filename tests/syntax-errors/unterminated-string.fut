import "lib
