mkdir dir; pmgenmap dir
