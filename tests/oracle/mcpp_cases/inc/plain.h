plain-included
