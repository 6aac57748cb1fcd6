pmerr 5 16 0x10 0X1F 0xffffcfbb 99999999999
