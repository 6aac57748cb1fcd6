printf '#define foo bar\n1foo foo_x foo.foo xfoo Foo _foo foo1 "foo" foo-foo\n' | pmcpp -P
