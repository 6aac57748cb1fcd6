export PACKAGE_BUILD_DATE="Mon Jan  1 00:00:00 UTC 2024"
printf "# leading block of multi-line comments\n# initialization group\nfoo {\n\ta.b.c\t\tONE\n\td.e.f.g\t\tTWO\n# embedded block of multi-lines\n# comments and boring pad text\n\txx.yy.zz\tTHREE\n}\n\n# trailing single line comment\n" | pmgenmap
