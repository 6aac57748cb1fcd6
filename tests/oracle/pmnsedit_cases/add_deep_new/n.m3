two.three {
    m3	3:3:3
    m4	4:4:4
}
