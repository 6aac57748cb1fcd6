printf 'foo|bar|X|Y\n' | pmcpp -P -Dfoo=a=b -Dbar= -D 'X="x y"' -PDY=2
