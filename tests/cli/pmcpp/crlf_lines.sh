printf 'a\r\n#define X 1\r\nX\r\n' | pmcpp -P
