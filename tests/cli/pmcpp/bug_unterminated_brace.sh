printf 'u #{X} #{Y\n' | pmcpp -P -r -DX=v
