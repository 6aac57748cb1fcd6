printf "#define MYDOMAIN 27\nroot {\n    foo MYDOMAIN:0:0 /* the foo */\n}\n" | pmcpp
