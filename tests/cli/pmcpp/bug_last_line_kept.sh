printf 'a\nb' | pmcpp -P
