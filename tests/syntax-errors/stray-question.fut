entry main : i32 = ?
